-- mallard_pg_sum_window(s, x) is s, the window sum(x) OVER (...), typed as
-- PostgreSQL types sum(x): bigint when x is smallint or integer. A window
-- cannot be a macro's body, so the planner passes the window call in s and
-- its argument x, whose type alone picks the overload.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_pg_sum_window(s, x INTEGER) AS CAST(s AS BIGINT),
    (s, x) AS s;
