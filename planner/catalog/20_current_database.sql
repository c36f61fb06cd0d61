-- current_database() is the name of the database a session sees: DuckDB's
-- default database, named after the database file. It is a name, as in
-- PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.current_database() AS
    CAST(system.main.current_database() AS pg_name);
