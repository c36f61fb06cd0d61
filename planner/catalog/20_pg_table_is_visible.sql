-- pg_table_is_visible(rel_oid) tells whether a relation can be named without
-- its schema: whether it is in pg_catalog or the current schema, the search
-- path. NULL for an unknown OID, as in PostgreSQL.
--
-- Like every catalog macro that queries a relation, it binds its arguments
-- in a derived table of their own (__arg) before it joins anything: DuckDB
-- substitutes a macro's arguments as written, so an argument such as oid,
-- meant for the caller's pg_class, would otherwise be captured by a
-- relation of the macro's that has a column of that name.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_table_is_visible(p_rel) AS (
    SELECT __c.relnamespace = 11 OR __n.nspname = system.main.current_schema()
    FROM (SELECT p_rel AS v) AS __arg
    JOIN mallard_catalog.pg.pg_class AS __c ON __c.oid = __arg.v
    JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __c.relnamespace
);
