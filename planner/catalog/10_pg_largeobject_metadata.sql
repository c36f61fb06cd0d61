-- pg_largeobject_metadata is empty: there are no large objects.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_largeobject_metadata AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS lomowner,
    CAST(NULL AS VARCHAR[]) AS lomacl
WHERE false;
