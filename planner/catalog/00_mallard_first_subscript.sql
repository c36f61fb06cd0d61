-- mallard_first_subscript(arr) is the subscript PostgreSQL gives the first
-- element of arr: 0 for an int2vector or oidvector (a list of storage's
-- pg_int2vector_elem or pg_oidvector_elem, the type of catalog columns such
-- as pg_index.indkey and pg_proc.proargtypes), 1 for an array. A DuckDB
-- list starts at 1 whatever its type, so the planner shifts a subscript of
-- such a column by this. It goes by the value's type, not its name: a
-- user's list keeps subscripts from 1.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_first_subscript(arr) AS
    CASE WHEN typeof(arr) IN ('pg_int2vector_elem[]', 'pg_oidvector_elem[]') THEN 0 ELSE 1 END;
