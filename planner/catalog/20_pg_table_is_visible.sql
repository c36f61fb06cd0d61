-- pg_table_is_visible(rel_oid) tells whether a relation can be named without
-- its schema: whether it is in pg_catalog or the current schema, the search
-- path. NULL for an unknown OID, as in PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_table_is_visible(p_rel) AS (
    SELECT c.relnamespace = 11 OR n.nspname = system.main.current_schema()
    FROM mallard_catalog.pg.pg_class AS c
    JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = c.relnamespace
    WHERE c.oid = p_rel
);
