-- pg_type_is_visible(type_oid) tells whether a type can be named without its
-- schema: whether it is in pg_catalog or the current schema.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_type_is_visible(p_type) AS (
    SELECT __t.typnamespace = 11 OR __n.nspname = system.main.current_schema()
    FROM (SELECT p_type AS v) AS __arg
    JOIN mallard_catalog.pg.pg_type AS __t ON __t.oid = __arg.v
    JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __t.typnamespace
);
