-- pg_foreign_server is empty: Mallard has no foreign servers.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_foreign_server AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS srvname,
    CAST(NULL AS BIGINT) AS srvowner,
    CAST(NULL AS BIGINT) AS srvfdw,
    CAST(NULL AS VARCHAR) AS srvtype,
    CAST(NULL AS VARCHAR) AS srvversion,
    CAST(NULL AS VARCHAR[]) AS srvacl,
    CAST(NULL AS VARCHAR[]) AS srvoptions
WHERE false;
