-- information_schema.character_sets lists the one character set, UTF8.
CREATE OR REPLACE VIEW mallard_catalog.info.character_sets AS
SELECT
    CAST(NULL AS pg_name) AS character_set_catalog,
    CAST(NULL AS pg_name) AS character_set_schema,
    CAST('UTF8' AS pg_name) AS character_set_name,
    CAST('UCS' AS pg_name) AS character_repertoire,
    CAST('UTF8' AS pg_name) AS form_of_use,
    CAST(current_database() AS pg_name) AS default_collate_catalog,
    CAST('pg_catalog' AS pg_name) AS default_collate_schema,
    CAST('C.UTF-8' AS pg_name) AS default_collate_name;
