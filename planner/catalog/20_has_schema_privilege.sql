-- has_schema_privilege([user,] object, privilege) is true: Mallard's one role is a superuser
-- and owns everything. Both of PostgreSQL's arities are provided, for
-- objects and users given by name or OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.has_schema_privilege(schema, privilege) AS true,
    (usr, schema, privilege) AS true;
