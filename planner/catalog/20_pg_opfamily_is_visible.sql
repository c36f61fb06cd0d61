-- pg_opfamily_is_visible(opfamily_oid) tells whether an operator family can
-- be named without its schema: whether it is in pg_catalog or the current
-- schema. There are none (see 10_pg_opfamily.sql), so it is NULL.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_opfamily_is_visible(p_opfamily) AS (
    SELECT __o.opfnamespace = 11 OR __n.nspname = system.main.current_schema()
    FROM (SELECT p_opfamily AS v) AS __arg
    JOIN mallard_catalog.pg.pg_opfamily AS __o ON __o.oid = __arg.v
    JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __o.opfnamespace
);
