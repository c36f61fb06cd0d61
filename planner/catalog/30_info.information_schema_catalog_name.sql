-- information_schema.information_schema_catalog_name names the current
-- database.
CREATE OR REPLACE VIEW mallard_catalog.info.information_schema_catalog_name AS
SELECT
    CAST(current_database() AS pg_name) AS catalog_name;
