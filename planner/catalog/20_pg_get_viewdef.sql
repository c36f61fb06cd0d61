-- pg_get_viewdef(view_oid[, pretty]) is the query of a view, as DuckDB keeps
-- it. The form that takes a view's name is not provided.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_viewdef(p_view) AS (
        SELECT __d.definition
        FROM (SELECT p_view AS v) AS __arg
        JOIN mallard_catalog.pg.mallard_view_definitions AS __d ON __d.oid = __arg.v),
    (p_view, p_pretty) AS (
        SELECT __d.definition
        FROM (SELECT p_view AS v) AS __arg
        JOIN mallard_catalog.pg.mallard_view_definitions AS __d ON __d.oid = __arg.v);
