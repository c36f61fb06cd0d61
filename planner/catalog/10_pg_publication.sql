-- pg_publication is empty: Mallard has no logical replication.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_publication AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS pubname,
    CAST(NULL AS BIGINT) AS pubowner,
    CAST(NULL AS BOOLEAN) AS puballtables,
    CAST(NULL AS BOOLEAN) AS pubinsert,
    CAST(NULL AS BOOLEAN) AS pubupdate,
    CAST(NULL AS BOOLEAN) AS pubdelete,
    CAST(NULL AS BOOLEAN) AS pubtruncate,
    CAST(NULL AS BOOLEAN) AS pubviaroot
WHERE false;
