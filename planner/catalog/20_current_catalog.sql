-- current_catalog is current_database(), a name.
CREATE OR REPLACE MACRO mallard_catalog.pg.current_catalog() AS
    CAST(system.main.current_database() AS pg_name);
