-- pg_foreign_data_wrapper is empty: Mallard has no foreign-data wrappers.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_foreign_data_wrapper AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS fdwname,
    CAST(NULL AS BIGINT) AS fdwowner,
    CAST(NULL AS BIGINT) AS fdwhandler,
    CAST(NULL AS BIGINT) AS fdwvalidator,
    CAST(NULL AS VARCHAR[]) AS fdwacl,
    CAST(NULL AS VARCHAR[]) AS fdwoptions
WHERE false;
