-- current_schemas(include_implicit) is the effective search path as a list:
-- the current schema, preceded by pg_catalog when include_implicit is true;
-- a name[], as in PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.current_schemas(include_implicit) AS
    CAST(CASE WHEN include_implicit
        THEN ['pg_catalog', system.main.current_schema()]
        ELSE [system.main.current_schema()]
    END AS pg_name[]);
