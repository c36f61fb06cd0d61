-- mallard_columns lists the columns of every relation the catalog shows: the
-- tables and views of the current database outside DuckDB's hidden main
-- schema, and Mallard's own pg_catalog and information_schema views under
-- PostgreSQL's names and OIDs. atttypid and atttypmod are the type a column
-- is presented as on the wire: what mallard_type_oid and mallard_type_typmod
-- give, computed here through mallard_type_map, which is cheaper to bind.
-- column_default is the default as PostgreSQL prints it, for that type.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_columns AS
WITH cols AS (
    SELECT
        c.table_oid AS attrelid,
        mallard_catalog.pg.mallard_nspoid(c.schema_name, c.schema_oid) AS relnamespace,
        c.schema_name AS nspname, c.table_name AS relname,
        CASE WHEN t.table_oid IS NULL THEN 'v' ELSE 'r' END AS relkind,
        c.column_name, c.column_index, c.data_type, c.is_nullable, c.column_default, c.comment
    FROM duckdb_columns() AS c
    LEFT JOIN duckdb_tables() AS t ON t.table_oid = c.table_oid
    WHERE c.database_name = current_database() AND c.schema_name <> 'main' AND NOT c.internal
    UNION ALL
    SELECT
        r.oid, CASE c.schema_name WHEN 'pg' THEN 11 ELSE 13207 END, r.nspname, r.relname, r.relkind,
        c.column_name, c.column_index, c.data_type, true, NULL, NULL
    FROM duckdb_columns() AS c
    JOIN mallard_catalog.pg.mallard_catalog_relations AS r
        ON r.relname = c.table_name
        AND r.nspname = CASE c.schema_name WHEN 'pg' THEN 'pg_catalog' ELSE 'information_schema' END
    WHERE c.database_name = 'mallard_catalog' AND c.schema_name IN ('pg', 'info')
), arrays AS (
    SELECT *, mallard_catalog.pg.mallard_is_array(data_type) AS is_array
    FROM cols
), scalars AS (
    SELECT *, CASE WHEN is_array THEN regexp_replace(data_type, '\[\d*\]$', '') ELSE data_type END AS scalar
    FROM arrays
)
SELECT
    s.attrelid, s.relnamespace, s.nspname, s.relname, s.relkind,
    s.column_name AS attname,
    CAST(s.column_index AS SMALLINT) AS attnum,
    s.data_type,
    CAST(CASE
        WHEN s.is_array THEN COALESCE(m.array_oid, 1009)
        WHEN s.data_type LIKE '%]' THEN COALESCE(m.oid, 114)
        ELSE COALESCE(m.oid, 25)
    END AS BIGINT) AS atttypid,
    CASE WHEN NOT s.is_array AND s.data_type LIKE '%]' THEN -1
        ELSE mallard_catalog.pg.mallard_scalar_typmod(s.scalar) END AS atttypmod,
    NOT s.is_nullable AS attnotnull,
    mallard_catalog.pg.mallard_default_expr(s.column_default, atttypid, s.nspname) AS column_default,
    s.comment
FROM scalars AS s
LEFT JOIN mallard_catalog.pg.mallard_type_map AS m ON m.type_key = mallard_catalog.pg.mallard_type_key(s.scalar);
