-- current_schema() is the schema unqualified names are created in: public,
-- which the server selects for every session.
CREATE OR REPLACE MACRO mallard_catalog.pg.current_schema() AS system.main.current_schema();
