-- pg_publication_rel is empty: Mallard has no logical replication.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_publication_rel AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS prpubid,
    CAST(NULL AS BIGINT) AS prrelid,
    CAST(NULL AS VARCHAR) AS prqual,
    CAST(NULL AS pg_int2vector_elem[]) AS prattrs
WHERE false;
