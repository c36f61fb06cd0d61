-- current_catalog is current_database().
CREATE OR REPLACE MACRO mallard_catalog.pg.current_catalog() AS system.main.current_database();
