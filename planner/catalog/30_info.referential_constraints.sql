-- information_schema.referential_constraints lists the foreign keys with the
-- PRIMARY KEY or UNIQUE constraint each references. DuckDB's foreign keys
-- are MATCH SIMPLE (match_option NONE) and NO ACTION.
CREATE OR REPLACE VIEW mallard_catalog.info.referential_constraints AS
SELECT
    CAST(current_database() AS pg_name) AS constraint_catalog,
    CAST(f.nspname AS pg_name) AS constraint_schema,
    CAST(f.conname AS pg_name) AS constraint_name,
    CAST(current_database() AS pg_name) AS unique_constraint_catalog,
    CAST(u.nspname AS pg_name) AS unique_constraint_schema,
    CAST(u.conname AS pg_name) AS unique_constraint_name,
    CAST('NONE' AS pg_varchar) AS match_option,
    CAST('NO ACTION' AS pg_varchar) AS update_rule,
    CAST('NO ACTION' AS pg_varchar) AS delete_rule
FROM mallard_catalog.pg.mallard_constraints AS f
LEFT JOIN mallard_catalog.pg.mallard_constraints AS u
    ON u.contype IN ('p', 'u') AND u.conindid = f.conindid
WHERE f.contype = 'f';
