-- pg_get_expr(expr, rel_oid[, pretty]) returns expr as is: Mallard's
-- catalog keeps expressions (pg_attrdef.adbin, pg_constraint.conbin,
-- pg_index.indexprs) as SQL text, not as parse trees.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_expr(expr, rel_oid) AS CAST(expr AS VARCHAR),
    (expr, rel_oid, pretty) AS CAST(expr AS VARCHAR);
