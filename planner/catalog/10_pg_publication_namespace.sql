-- pg_publication_namespace is empty: Mallard has no logical replication.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_publication_namespace AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS pnpubid,
    CAST(NULL AS BIGINT) AS pnnspid
WHERE false;
