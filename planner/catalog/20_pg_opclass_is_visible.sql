-- pg_opclass_is_visible(opclass_oid) tells whether an operator class can be
-- named without its schema: whether it is in pg_catalog or the current
-- schema. There are none (see 10_pg_opclass.sql), so it is NULL.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_opclass_is_visible(p_opclass) AS (
    SELECT __o.opcnamespace = 11 OR __n.nspname = system.main.current_schema()
    FROM (SELECT p_opclass AS v) AS __arg
    JOIN mallard_catalog.pg.pg_opclass AS __o ON __o.oid = __arg.v
    JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __o.opcnamespace
);
