-- information_schema.parameters lists the parameters of the functions in
-- routines, all IN parameters.
CREATE OR REPLACE VIEW mallard_catalog.info.parameters AS
SELECT
    CAST(current_database() AS VARCHAR) AS specific_catalog,
    CAST(n.nspname AS VARCHAR) AS specific_schema,
    CAST(p.proname || '_' || p.oid AS VARCHAR) AS specific_name,
    CAST(p.pos AS INTEGER) AS ordinal_position,
    CAST('IN' AS VARCHAR) AS parameter_mode,
    CAST('NO' AS VARCHAR) AS is_result,
    CAST('NO' AS VARCHAR) AS as_locator,
    CAST(p.proargnames[p.pos] AS VARCHAR) AS parameter_name,
    CAST(CASE WHEN t.typcategory = 'A' THEN 'ARRAY' ELSE COALESCE(mallard_catalog.pg.mallard_oid_name(p.argtype), t.typname) END AS VARCHAR) AS data_type,
    CAST(NULL AS INTEGER) AS character_maximum_length,
    CAST(NULL AS INTEGER) AS character_octet_length,
    CAST(NULL AS VARCHAR) AS character_set_catalog,
    CAST(NULL AS VARCHAR) AS character_set_schema,
    CAST(NULL AS VARCHAR) AS character_set_name,
    CAST(NULL AS VARCHAR) AS collation_catalog,
    CAST(NULL AS VARCHAR) AS collation_schema,
    CAST(NULL AS VARCHAR) AS collation_name,
    CAST(NULL AS INTEGER) AS numeric_precision,
    CAST(NULL AS INTEGER) AS numeric_precision_radix,
    CAST(NULL AS INTEGER) AS numeric_scale,
    CAST(NULL AS INTEGER) AS datetime_precision,
    CAST(NULL AS VARCHAR) AS interval_type,
    CAST(NULL AS INTEGER) AS interval_precision,
    CAST(current_database() AS VARCHAR) AS udt_catalog,
    CAST('pg_catalog' AS VARCHAR) AS udt_schema,
    CAST(t.typname AS VARCHAR) AS udt_name,
    CAST(NULL AS VARCHAR) AS scope_catalog,
    CAST(NULL AS VARCHAR) AS scope_schema,
    CAST(NULL AS VARCHAR) AS scope_name,
    CAST(NULL AS INTEGER) AS maximum_cardinality,
    CAST(CAST(p.pos AS VARCHAR) AS VARCHAR) AS dtd_identifier,
    CAST(NULL AS VARCHAR) AS parameter_default
FROM (
    SELECT oid, proname, pronamespace, proargnames, unnest(argtypes) AS argtype,
        generate_subscripts(argtypes, 1) AS pos
    FROM mallard_catalog.pg.mallard_functions
) AS p
JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = p.pronamespace
LEFT JOIN mallard_catalog.pg.pg_type AS t ON t.oid = p.argtype;
