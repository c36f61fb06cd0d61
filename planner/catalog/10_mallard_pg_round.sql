-- mallard_pg_round(x, w) is PostgreSQL's round(x) of one argument, where w
-- has x's type (see the planner's typedCall): numerics round half away
-- from zero (DuckDB's round); float8, and the integers Postgres promotes to
-- it, round half to even (Postgres' rint) and are float8.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_pg_round(x, w DOUBLE) AS round_even(CAST(x AS DOUBLE), 0),
    (x, w DECIMAL(38,16)) AS round(x),
    (x, w) AS round(x);
