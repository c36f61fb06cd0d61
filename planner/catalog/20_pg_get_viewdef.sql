-- pg_get_viewdef(view_oid[, pretty]) is the query of a view, as DuckDB keeps
-- it. The form that takes a view's name is not provided.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_viewdef(p_view) AS (
        SELECT definition FROM mallard_catalog.pg.mallard_view_definitions WHERE oid = p_view),
    (p_view, p_pretty) AS (
        SELECT definition FROM mallard_catalog.pg.mallard_view_definitions WHERE oid = p_view);
