-- current_schema() is the schema unqualified names are created in: public,
-- which the server selects for every session. It is a name, as in PostgreSQL,
-- and NULL when no schema of the search path exists (DuckDB's hidden main
-- schema is left).
CREATE OR REPLACE MACRO mallard_catalog.pg.current_schema() AS
    CAST(NULLIF(system.main.current_schema(), 'main') AS pg_name);
