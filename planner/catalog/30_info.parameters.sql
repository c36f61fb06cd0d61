-- information_schema.parameters lists the parameters of the functions in
-- routines, all IN parameters.
CREATE OR REPLACE VIEW mallard_catalog.info.parameters AS
SELECT
    CAST(current_database() AS pg_name) AS specific_catalog,
    CAST(n.nspname AS pg_name) AS specific_schema,
    CAST(p.proname || '_' || p.oid AS pg_name) AS specific_name,
    CAST(p.pos AS INTEGER) AS ordinal_position,
    CAST('IN' AS pg_varchar) AS parameter_mode,
    CAST('NO' AS pg_varchar) AS is_result,
    CAST('NO' AS pg_varchar) AS as_locator,
    CAST(p.proargnames[p.pos] AS pg_name) AS parameter_name,
    CAST(CASE WHEN t.typcategory = 'A' THEN 'ARRAY' ELSE COALESCE(mallard_catalog.pg.mallard_oid_name(p.argtype), t.typname) END AS pg_varchar) AS data_type,
    CAST(NULL AS INTEGER) AS character_maximum_length,
    CAST(NULL AS INTEGER) AS character_octet_length,
    CAST(NULL AS pg_name) AS character_set_catalog,
    CAST(NULL AS pg_name) AS character_set_schema,
    CAST(NULL AS pg_name) AS character_set_name,
    CAST(NULL AS pg_name) AS collation_catalog,
    CAST(NULL AS pg_name) AS collation_schema,
    CAST(NULL AS pg_name) AS collation_name,
    CAST(NULL AS INTEGER) AS numeric_precision,
    CAST(NULL AS INTEGER) AS numeric_precision_radix,
    CAST(NULL AS INTEGER) AS numeric_scale,
    CAST(NULL AS INTEGER) AS datetime_precision,
    CAST(NULL AS pg_varchar) AS interval_type,
    CAST(NULL AS INTEGER) AS interval_precision,
    CAST(current_database() AS pg_name) AS udt_catalog,
    CAST('pg_catalog' AS pg_name) AS udt_schema,
    CAST(t.typname AS pg_name) AS udt_name,
    CAST(NULL AS pg_name) AS scope_catalog,
    CAST(NULL AS pg_name) AS scope_schema,
    CAST(NULL AS pg_name) AS scope_name,
    CAST(NULL AS INTEGER) AS maximum_cardinality,
    CAST(CAST(p.pos AS VARCHAR) AS pg_name) AS dtd_identifier,
    CAST(NULL AS pg_varchar) AS parameter_default
FROM (
    SELECT oid, proname, pronamespace, proargnames, unnest(argtypes) AS argtype,
        generate_subscripts(argtypes, 1) AS pos
    FROM mallard_catalog.pg.mallard_functions
) AS p
JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = p.pronamespace
LEFT JOIN mallard_catalog.pg.pg_type AS t ON t.oid = p.argtype;
