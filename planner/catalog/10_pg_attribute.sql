-- pg_attribute lists the columns of the relations pg_class shows: tables,
-- views and Mallard's own catalog views (from mallard_columns) and the keys
-- of indexes. atttypid and atttypmod are the type each column is presented
-- as on the wire, so they agree with RowDescription; attlen, attbyval,
-- attalign, attstorage and attcollation are that type's. attnum is 1-based;
-- there are no system columns (attnum < 0) and no dropped columns. An index
-- key that is an expression is named expr and typed text.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_attribute AS
WITH columns AS (
    SELECT * FROM mallard_catalog.pg.mallard_columns
), cols AS (
    SELECT attrelid, attname, atttypid, atttypmod, attnum, attnotnull,
        column_default IS NOT NULL AS atthasdef
    FROM columns
    UNION ALL
    SELECT k.indexrelid, COALESCE(c.attname, 'expr'), COALESCE(c.atttypid, 25),
        COALESCE(c.atttypmod, -1), CAST(k.pos AS SMALLINT), false, false
    FROM (
        SELECT indexrelid, indrelid, unnest(indkey) AS attnum, generate_subscripts(indkey, 1) AS pos
        FROM mallard_catalog.pg.mallard_indexes
    ) AS k
    LEFT JOIN columns AS c ON c.attrelid = k.indrelid AND c.attnum = k.attnum
)
SELECT
    CAST(c.attrelid AS BIGINT) AS attrelid,
    CAST(c.attname AS pg_name) AS attname,
    CAST(c.atttypid AS BIGINT) AS atttypid,
    CAST(-1 AS INTEGER) AS attstattarget,
    CAST(COALESCE(t.typlen, -1) AS SMALLINT) AS attlen,
    CAST(c.attnum AS SMALLINT) AS attnum,
    CAST(CASE WHEN t.typcategory = 'A' THEN 1 ELSE 0 END AS INTEGER) AS attndims,
    CAST(-1 AS INTEGER) AS attcacheoff,
    CAST(c.atttypmod AS INTEGER) AS atttypmod,
    COALESCE(t.typbyval, false) AS attbyval,
    CAST(COALESCE(t.typalign, 'i') AS pg_char) AS attalign,
    CAST(COALESCE(t.typstorage, 'x') AS pg_char) AS attstorage,
    CAST('' AS pg_char) AS attcompression,
    c.attnotnull,
    c.atthasdef,
    false AS atthasmissing,
    CAST('' AS pg_char) AS attidentity,
    CAST('' AS pg_char) AS attgenerated,
    false AS attisdropped,
    true AS attislocal,
    CAST(0 AS INTEGER) AS attinhcount,
    CAST(COALESCE(t.typcollation, 0) AS BIGINT) AS attcollation,
    CAST(NULL AS VARCHAR[]) AS attacl,
    CAST(NULL AS VARCHAR[]) AS attoptions,
    CAST(NULL AS VARCHAR[]) AS attfdwoptions,
    CAST(NULL AS VARCHAR) AS attmissingval
FROM cols AS c
LEFT JOIN mallard_catalog.pg.mallard_builtin_types AS t ON t.oid = c.atttypid;
