-- pg_index describes the indexes of mallard_indexes.
--
-- indkey and indoption are int2vectors and indcollation and indclass
-- oidvectors, as in PostgreSQL: lists of storage's element aliases
-- pg_int2vector_elem and pg_oidvector_elem. Clients take them apart in
-- SQL — SQLAlchemy with unnest(indkey) and generate_subscripts(indkey, 1),
-- pgjdbc with information_schema._pg_expandarray(indkey) and
-- indoption[n - 1], scripts with attnum = ANY(indkey) — and read them whole
-- as text, "1 2", which a cast to text prints (SQLAlchemy splits
-- indkey::varchar and indoption::varchar on spaces). Every indoption is 0
-- (ascending, nulls last); indclass and indcollation are 0.
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
    CAST(indkey AS pg_int2vector_elem[]) AS indkey,
    CAST(list_transform(indkey, k -> 0) AS pg_oidvector_elem[]) AS indcollation,
    CAST(list_transform(indkey, k -> 0) AS pg_oidvector_elem[]) AS indclass,
    CAST(list_transform(indkey, k -> 0) AS pg_int2vector_elem[]) AS indoption,
    indexprs,
    CAST(NULL AS VARCHAR) AS indpred
FROM mallard_catalog.pg.mallard_indexes;
