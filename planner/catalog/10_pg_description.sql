-- pg_description holds the comments DuckDB keeps (COMMENT ON TABLE, VIEW,
-- INDEX, SEQUENCE, COLUMN, TYPE, SCHEMA): on relations and their columns
-- under classoid 1259 (pg_class) with objsubid the column number, on types
-- under 1247 (pg_type) and on schemas under 2615 (pg_namespace). Comments on
-- macros are left out: reading them means listing all of DuckDB's functions,
-- which would make every query of pg_description (psql's \d+, pgjdbc's
-- getTables and getColumns) some 40 ms slower.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_description AS
SELECT CAST(objoid AS BIGINT) AS objoid, CAST(classoid AS BIGINT) AS classoid,
       CAST(objsubid AS INTEGER) AS objsubid, description
FROM (
    SELECT table_oid AS objoid, 1259 AS classoid, 0 AS objsubid, comment AS description
    FROM duckdb_tables()
    WHERE database_name = current_database() AND schema_name <> 'main'
    UNION ALL
    SELECT view_oid, 1259, 0, comment
    FROM duckdb_views()
    WHERE database_name = current_database() AND schema_name <> 'main'
    UNION ALL
    SELECT sequence_oid, 1259, 0, comment
    FROM duckdb_sequences()
    WHERE database_name = current_database() AND schema_name <> 'main'
    UNION ALL
    SELECT index_oid, 1259, 0, comment
    FROM duckdb_indexes()
    WHERE database_name = current_database() AND schema_name <> 'main'
    UNION ALL
    SELECT table_oid, 1259, column_index, comment
    FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name <> 'main'
    UNION ALL
    SELECT type_oid, 1247, 0, comment
    FROM duckdb_types()
    WHERE database_name = current_database() AND schema_name <> 'main' AND type_oid IS NOT NULL
    UNION ALL
    SELECT mallard_catalog.pg.mallard_nspoid(schema_name, oid), 2615, 0, comment
    FROM duckdb_schemas()
    WHERE database_name = current_database() AND schema_name <> 'main'
)
WHERE description IS NOT NULL AND description <> '';
