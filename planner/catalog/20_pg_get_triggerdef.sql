-- pg_get_triggerdef(trigger_oid[, pretty]) is NULL: DuckDB has no triggers.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_triggerdef(trigger_oid) AS CAST(NULL AS VARCHAR),
    (trigger_oid, pretty) AS CAST(NULL AS VARCHAR);
