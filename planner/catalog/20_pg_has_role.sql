-- pg_has_role([user,] object, privilege) is true: Mallard's one role is a superuser
-- and owns everything. Both of PostgreSQL's arities are provided, for
-- objects and users given by name or OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_has_role(role, privilege) AS true,
    (usr, role, privilege) AS true;
