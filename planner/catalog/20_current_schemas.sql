-- current_schemas(include_implicit) is the effective search path as a list:
-- the current schema, preceded by pg_catalog when include_implicit is true;
-- a name[], as in PostgreSQL. DuckDB's hidden main schema, which is all
-- that is left when no schema of the search path exists, is not shown:
-- the path is then empty, as in Postgres.
CREATE OR REPLACE MACRO mallard_catalog.pg.current_schemas(include_implicit) AS
    CAST(list_filter(CASE WHEN include_implicit
        THEN ['pg_catalog', system.main.current_schema()]
        ELSE [system.main.current_schema()]
    END, lambda s: s <> 'main') AS pg_name[]);
