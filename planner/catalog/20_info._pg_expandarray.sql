-- information_schema._pg_expandarray(arr) returns one row (x, n) per element
-- x of arr at position n, as a set-returning function in the select list:
-- pgjdbc's DatabaseMetaData reads (information_schema._pg_expandarray(
-- i.indkey)).n and compares (keys).x. In DuckDB it expands to unnest of a
-- list of structs, so its fields are read the same way.
CREATE OR REPLACE MACRO mallard_catalog.info._pg_expandarray(arr) AS
    unnest(list_transform(range(1, len(arr) + 1), i -> {'x': arr[i], 'n': CAST(i AS INTEGER)}));
