-- pg_class lists the relations of the current database (tables 'r', views
-- 'v', indexes 'i', sequences 'S'; DuckDB's hidden main schema and other
-- attached databases excluded) and Mallard's own pg_catalog and
-- information_schema relations under PostgreSQL's OIDs. Everything is owned
-- by role 10, stored permanently in the default tablespace, has no ACL,
-- options, rules, triggers, row security or partitions; relhastriggers is
-- true for a table with a FOREIGN KEY, as Postgres enforces one by triggers
-- (pg_dump dumps the foreign keys of such tables only). reltuples is DuckDB's
-- row count estimate for tables and their indexes; relpages is 0.
-- relhasindex is DuckDB's: true also for a table whose only index is the
-- one DuckDB keeps behind a FOREIGN KEY.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_class AS
WITH rels AS (
    SELECT t.table_oid AS oid, t.table_name AS relname,
        mallard_catalog.pg.mallard_nspoid(t.schema_name, t.schema_oid) AS relnamespace,
        'r' AS relkind, CAST(2 AS BIGINT) AS relam, t.column_count AS relnatts,
        t.check_constraint_count AS relchecks, t.index_count > 0 AS relhasindex,
        CAST(t.estimated_size AS FLOAT) AS reltuples, false AS relisshared
    FROM duckdb_tables() AS t
    WHERE t.database_name = current_database() AND t.schema_name <> 'main' AND NOT t.internal
    UNION ALL
    SELECT view_oid, view_name, mallard_catalog.pg.mallard_nspoid(schema_name, schema_oid),
        'v', 0, column_count, 0, false, 0, false
    FROM duckdb_views()
    WHERE database_name = current_database() AND schema_name <> 'main' AND NOT internal
    UNION ALL
    SELECT i.indexrelid, i.relname, i.relnamespace, 'i', 403, len(i.indkey), 0, false,
        CAST(t.estimated_size AS FLOAT), false
    FROM mallard_catalog.pg.mallard_indexes AS i
    LEFT JOIN duckdb_tables() AS t ON t.table_oid = i.indrelid
    UNION ALL
    SELECT sequence_oid, sequence_name, mallard_catalog.pg.mallard_nspoid(schema_name, schema_oid),
        'S', 0, 3, 0, false, 1, false
    FROM duckdb_sequences()
    WHERE database_name = current_database() AND schema_name <> 'main'
    UNION ALL
    SELECT r.oid, r.relname, CASE r.nspname WHEN 'pg_catalog' THEN 11 ELSE 13207 END,
        r.relkind, CASE r.relkind WHEN 'r' THEN 2 ELSE 0 END, v.column_count, 0, false, 0, r.relisshared
    FROM mallard_catalog.pg.mallard_catalog_relations AS r
    JOIN duckdb_views() AS v
        ON v.database_name = 'mallard_catalog' AND v.view_name = r.relname
        AND v.schema_name = CASE r.nspname WHEN 'pg_catalog' THEN 'pg' ELSE 'info' END
)
SELECT
    CAST(oid AS BIGINT) AS oid,
    CAST(relname AS pg_name) AS relname,
    CAST(relnamespace AS BIGINT) AS relnamespace,
    CAST(0 AS BIGINT) AS reltype,
    CAST(0 AS BIGINT) AS reloftype,
    CAST(10 AS BIGINT) AS relowner,
    CAST(relam AS BIGINT) AS relam,
    CAST(CASE WHEN relkind = 'v' THEN 0 ELSE oid END AS BIGINT) AS relfilenode,
    CAST(0 AS BIGINT) AS reltablespace,
    CAST(0 AS INTEGER) AS relpages,
    CAST(reltuples AS FLOAT) AS reltuples,
    CAST(0 AS INTEGER) AS relallvisible,
    CAST(0 AS BIGINT) AS reltoastrelid,
    relhasindex,
    relisshared,
    CAST('p' AS pg_char) AS relpersistence,
    CAST(relkind AS pg_char) AS relkind,
    CAST(relnatts AS SMALLINT) AS relnatts,
    CAST(relchecks AS SMALLINT) AS relchecks,
    false AS relhasrules,
    relkind = 'r' AND oid IN (
        SELECT table_oid FROM duckdb_constraints()
        WHERE database_name = current_database() AND constraint_type = 'FOREIGN KEY'
    ) AS relhastriggers,
    false AS relhassubclass,
    false AS relrowsecurity,
    false AS relforcerowsecurity,
    true AS relispopulated,
    CAST(CASE WHEN relkind = 'r' THEN 'd' ELSE 'n' END AS pg_char) AS relreplident,
    false AS relispartition,
    CAST(0 AS BIGINT) AS relrewrite,
    CAST(0 AS BIGINT) AS relfrozenxid,
    CAST(0 AS BIGINT) AS relminmxid,
    CAST(NULL AS VARCHAR[]) AS relacl,
    CAST(NULL AS VARCHAR[]) AS reloptions,
    CAST(NULL AS VARCHAR) AS relpartbound
FROM rels;
