-- pg_enum lists the labels of the current database's ENUM types in their
-- declared order (enumsortorder 1, 2, ...).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_enum AS
SELECT
    mallard_catalog.pg.mallard_sub_oid(type_oid, 3, pos) AS oid,
    CAST(type_oid AS BIGINT) AS enumtypid,
    CAST(pos AS FLOAT) AS enumsortorder,
    CAST(enumlabel AS pg_name) AS enumlabel
FROM (
    SELECT type_oid, unnest(labels) AS enumlabel, generate_subscripts(labels, 1) AS pos
    FROM duckdb_types()
    WHERE database_name = current_database() AND schema_name <> 'main'
        AND logical_type = 'ENUM' AND NOT internal AND type_oid IS NOT NULL
);
