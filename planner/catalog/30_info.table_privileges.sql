-- information_schema.table_privileges lists, for every table and view, the
-- privileges PostgreSQL grants a relation's owner, granted by and to
-- Mallard's one role.
CREATE OR REPLACE VIEW mallard_catalog.info.table_privileges AS
SELECT
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS grantor,
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS grantee,
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(n.nspname AS pg_name) AS table_schema,
    CAST(c.relname AS pg_name) AS table_name,
    CAST(p.privilege_type AS pg_varchar) AS privilege_type,
    CAST('YES' AS pg_varchar) AS is_grantable,
    CAST(CASE WHEN p.privilege_type = 'SELECT' THEN 'YES' ELSE 'NO' END AS pg_varchar) AS with_hierarchy
FROM mallard_catalog.pg.pg_class AS c
JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = c.relnamespace
CROSS JOIN (VALUES ('INSERT'), ('SELECT'), ('UPDATE'), ('DELETE'), ('TRUNCATE'), ('REFERENCES'), ('TRIGGER'))
    AS p(privilege_type)
WHERE c.relkind IN ('r', 'v');
