-- pg_database lists the one database a session sees, current_database(),
-- under a fixed OID (mallard_database_oid). It is UTF8 (encoding 6) with the
-- C.UTF-8 locale, owned by role 10, in tablespace pg_default.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_database AS
SELECT
    mallard_catalog.pg.mallard_database_oid() AS oid,
    CAST(current_database() AS pg_name) AS datname,
    CAST(10 AS BIGINT) AS datdba,
    CAST(6 AS INTEGER) AS encoding,
    CAST('c' AS pg_char) AS datlocprovider,
    false AS datistemplate,
    true AS datallowconn,
    CAST(-1 AS INTEGER) AS datconnlimit,
    CAST(0 AS BIGINT) AS datfrozenxid,
    CAST(1 AS BIGINT) AS datminmxid,
    CAST(1663 AS BIGINT) AS dattablespace,
    'C.UTF-8' AS datcollate,
    'C.UTF-8' AS datctype,
    CAST(NULL AS VARCHAR) AS daticulocale,
    CAST(NULL AS VARCHAR) AS datcollversion,
    CAST(NULL AS VARCHAR[]) AS datacl;
