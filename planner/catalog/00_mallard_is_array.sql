-- mallard_is_array(data_type) tells whether pgcodec presents a DuckDB type
-- as a PostgreSQL array: a LIST or ARRAY (INTEGER[], INTEGER[3]) whose
-- element is a scalar or JSON. A list of lists, structs, maps or unions is
-- presented as json instead, and a list of storage's pg_int2vector_elem or
-- pg_oidvector_elem as int2vector or oidvector.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_is_array(data_type) AS
    regexp_full_match(data_type, '(?s).*[^\]]\[\d*\]')
    AND NOT regexp_matches(data_type, '^(STRUCT|MAP|UNION)\(')
    AND data_type NOT IN ('pg_int2vector_elem[]', 'pg_oidvector_elem[]');
