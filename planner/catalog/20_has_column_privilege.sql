-- has_column_privilege([user,] table, column, privilege) is true: Mallard's
-- one role is a superuser and owns everything.
CREATE OR REPLACE MACRO mallard_catalog.pg.has_column_privilege(tbl, col, privilege) AS true,
    (usr, tbl, col, privilege) AS true;
