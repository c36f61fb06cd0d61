-- pg_language lists the languages Mallard's functions are written in:
-- internal (DuckDB's built-in functions), c and sql (macros), with
-- PostgreSQL's OIDs. There is no plpgsql.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_language AS
SELECT
    CAST(oid AS BIGINT) AS oid, CAST(lanname AS pg_name) AS lanname, CAST(10 AS BIGINT) AS lanowner, false AS lanispl,
    lanpltrusted, CAST(0 AS BIGINT) AS lanplcallfoid, CAST(0 AS BIGINT) AS laninline,
    CAST(lanvalidator AS BIGINT) AS lanvalidator, CAST(NULL AS VARCHAR[]) AS lanacl
FROM (VALUES
    (12, 'internal', false, 2246),
    (13, 'c', false, 2247),
    (14, 'sql', true, 2248)
) AS l(oid, lanname, lanpltrusted, lanvalidator);
