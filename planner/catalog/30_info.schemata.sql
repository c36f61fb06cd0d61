-- information_schema.schemata lists the schemas of pg_namespace, owned by
-- Mallard's one role.
CREATE OR REPLACE VIEW mallard_catalog.info.schemata AS
SELECT
    CAST(current_database() AS pg_name) AS catalog_name,
    CAST(nspname AS pg_name) AS schema_name,
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS schema_owner,
    CAST(NULL AS pg_name) AS default_character_set_catalog,
    CAST(NULL AS pg_name) AS default_character_set_schema,
    CAST(NULL AS pg_name) AS default_character_set_name,
    CAST(NULL AS pg_varchar) AS sql_path
FROM mallard_catalog.pg.pg_namespace;
