-- pg_index describes the indexes of mallard_indexes.
--
-- indkey is a smallint list (int2vector in PostgreSQL): clients take it apart
-- in SQL — SQLAlchemy with unnest(indkey) and generate_subscripts(indkey, 1),
-- pgjdbc with information_schema._pg_expandarray(indkey), scripts with
-- attnum = ANY(indkey) — and a list supports all of those. Note that a
-- PostgreSQL int2vector subscript starts at 0 and a DuckDB list's at 1.
--
-- indoption, indclass and indcollation are text, space-separated numbers, as
-- PostgreSQL prints an int2vector or oidvector: clients read them whole and
-- split them (SQLAlchemy's psycopg dialects split indoption on spaces). Every
-- indoption is 0 (ascending, nulls last); indclass and indcollation are 0.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_index AS
SELECT
    CAST(indexrelid AS BIGINT) AS indexrelid,
    CAST(indrelid AS BIGINT) AS indrelid,
    CAST(len(indkey) AS SMALLINT) AS indnatts,
    CAST(len(indkey) AS SMALLINT) AS indnkeyatts,
    indisunique,
    false AS indnullsnotdistinct,
    indisprimary,
    false AS indisexclusion,
    true AS indimmediate,
    false AS indisclustered,
    true AS indisvalid,
    false AS indcheckxmin,
    true AS indisready,
    true AS indislive,
    false AS indisreplident,
    indkey,
    array_to_string(list_transform(indkey, k -> '0'), ' ') AS indcollation,
    array_to_string(list_transform(indkey, k -> '0'), ' ') AS indclass,
    array_to_string(list_transform(indkey, k -> '0'), ' ') AS indoption,
    indexprs,
    CAST(NULL AS VARCHAR) AS indpred
FROM mallard_catalog.pg.mallard_indexes;
