-- pg_trigger is empty: DuckDB has no triggers.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_trigger AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS tgrelid,
    CAST(NULL AS BIGINT) AS tgparentid,
    CAST(NULL AS pg_name) AS tgname,
    CAST(NULL AS BIGINT) AS tgfoid,
    CAST(NULL AS SMALLINT) AS tgtype,
    CAST(NULL AS pg_char) AS tgenabled,
    CAST(NULL AS BOOLEAN) AS tgisinternal,
    CAST(NULL AS BIGINT) AS tgconstrrelid,
    CAST(NULL AS BIGINT) AS tgconstrindid,
    CAST(NULL AS BIGINT) AS tgconstraint,
    CAST(NULL AS BOOLEAN) AS tgdeferrable,
    CAST(NULL AS BOOLEAN) AS tginitdeferred,
    CAST(NULL AS SMALLINT) AS tgnargs,
    CAST(NULL AS pg_int2vector_elem[]) AS tgattr,
    CAST(NULL AS BLOB) AS tgargs,
    CAST(NULL AS VARCHAR) AS tgqual,
    CAST(NULL AS pg_name) AS tgoldtable,
    CAST(NULL AS pg_name) AS tgnewtable
WHERE false;
