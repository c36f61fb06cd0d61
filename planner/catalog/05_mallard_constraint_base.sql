-- mallard_constraint_base numbers the constraints PostgreSQL keeps in
-- pg_constraint (PRIMARY KEY, UNIQUE, FOREIGN KEY, CHECK; PostgreSQL 15 has
-- no NOT NULL constraints there) per table, in DuckDB's order, and derives
-- their OIDs and those of the indexes behind PRIMARY KEY and UNIQUE from it
-- (mallard_sub_oid). DuckDB ignores the names given to constraints and makes
-- up its own, so the names are made up here the way PostgreSQL makes them
-- up: <table>_pkey, <table>_<columns>_key, _fkey and _check.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_constraint_base AS
SELECT
    c.*,
    mallard_catalog.pg.mallard_sub_oid(c.table_oid, 0, c.k) AS oid,
    CASE WHEN c.constraint_type IN ('PRIMARY KEY', 'UNIQUE')
        THEN mallard_catalog.pg.mallard_sub_oid(c.table_oid, 1, c.k) END AS index_oid,
    mallard_catalog.pg.mallard_nspoid(c.schema_name, c.schema_oid) AS connamespace,
    CASE c.constraint_type
        WHEN 'PRIMARY KEY' THEN 'p' WHEN 'UNIQUE' THEN 'u'
        WHEN 'FOREIGN KEY' THEN 'f' ELSE 'c'
    END AS contype,
    CASE c.constraint_type
        WHEN 'PRIMARY KEY' THEN c.table_name || '_pkey'
        ELSE array_to_string(list_prepend(c.table_name, c.constraint_column_names), '_')
            || CASE c.constraint_type WHEN 'UNIQUE' THEN '_key' WHEN 'FOREIGN KEY' THEN '_fkey' ELSE '_check' END
    END AS conname,
    list_transform(c.constraint_column_indexes, i -> CAST(i + 1 AS SMALLINT)) AS conkey
FROM (
    SELECT d.*, row_number() OVER (PARTITION BY d.table_oid ORDER BY d.constraint_index) AS k
    FROM duckdb_constraints() AS d
    WHERE d.database_name = current_database() AND d.schema_name <> 'main'
        AND d.constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY', 'CHECK')
) AS c;
