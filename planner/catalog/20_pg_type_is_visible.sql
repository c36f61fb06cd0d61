-- pg_type_is_visible(type_oid) tells whether a type can be named without its
-- schema: whether it is in pg_catalog or the current schema.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_type_is_visible(p_type) AS (
    SELECT t.typnamespace = 11 OR n.nspname = system.main.current_schema()
    FROM mallard_catalog.pg.pg_type AS t
    JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = t.typnamespace
    WHERE t.oid = p_type
);
