-- mallard_type_key(data_type) reduces a DuckDB type, spelled as
-- duckdb_columns().data_type spells it, to the key mallard_scalar_oid looks
-- up: the name for a simple type or an int2vector or oidvector (a list of
-- storage's pg_int2vector_elem or pg_oidvector_elem), DECIMAL, ENUM, STRUCT
-- (for STRUCT, MAP and UNION) or LIST (for LIST and ARRAY) for a
-- parameterized one.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_type_key(data_type) AS
    CASE
        WHEN data_type IN ('pg_int2vector_elem[]', 'pg_oidvector_elem[]') THEN data_type
        WHEN data_type LIKE '%]' THEN 'LIST'
        WHEN data_type LIKE 'DECIMAL(%' THEN 'DECIMAL'
        WHEN data_type LIKE 'ENUM(%' THEN 'ENUM'
        WHEN data_type LIKE 'STRUCT(%' OR data_type LIKE 'MAP(%' OR data_type LIKE 'UNION(%' THEN 'STRUCT'
        ELSE data_type
    END;
