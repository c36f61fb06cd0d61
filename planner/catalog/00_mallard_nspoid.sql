-- mallard_nspoid(schema_name, schema_oid) is pg_namespace.oid of a schema:
-- PostgreSQL's fixed OIDs for public (2200), pg_catalog (11) and
-- information_schema (13207, what initdb of PostgreSQL 15 assigns), and
-- DuckDB's schema OID for every other schema.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_nspoid(nsp_name, nsp_oid) AS
    CAST(CASE nsp_name
        WHEN 'public' THEN 2200
        WHEN 'pg_catalog' THEN 11
        WHEN 'information_schema' THEN 13207
        ELSE nsp_oid
    END AS BIGINT);
