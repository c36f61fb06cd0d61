-- mallard_proc_type(type_name) is the OID of the PostgreSQL type a DuckDB
-- function's parameter or result of type type_name (as duckdb_functions()
-- spells it) is shown as in pg_proc: DuckDB's generic types become the
-- PostgreSQL pseudo-types ANY "any", T anyelement, T[] anyarray; an untyped
-- macro parameter or result (NULL) anyelement.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_proc_type(type_name) AS
    CASE
        WHEN type_name IS NULL OR type_name = 'TYPE' OR regexp_full_match(type_name, '[A-Z]') THEN 2283
        WHEN type_name = 'ANY' THEN 2276
        WHEN regexp_full_match(type_name, '[A-Z]\[\]') OR type_name IN ('ANY[]', 'LIST', 'ARRAY') THEN 2277
        ELSE mallard_catalog.pg.mallard_type_oid(type_name)
    END;
