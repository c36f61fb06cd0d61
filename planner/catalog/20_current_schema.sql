-- current_schema() is the schema unqualified names are created in: public,
-- which the server selects for every session. It is a name, as in PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.current_schema() AS
    CAST(system.main.current_schema() AS pg_name);
