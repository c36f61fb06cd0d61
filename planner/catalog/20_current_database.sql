-- current_database() is the name of the database a session sees: DuckDB's
-- default database, named after the database file.
CREATE OR REPLACE MACRO mallard_catalog.pg.current_database() AS system.main.current_database();
