-- mallard_pg_avg(x) is PostgreSQL's avg(x): numeric (here DECIMAL(38,16),
-- exact) for integers and numerics, where DuckDB's avg returns DOUBLE, and
-- DuckDB's own avg for every other type (float8 for floats, as Postgres;
-- intervals, timestamps). The planner calls it for a plain avg(x), not a
-- window, DISTINCT, FILTER or ordered one. Integer types cast to BIGINT;
-- decimals cast to DECIMAL(38,16), so a decimal with more than 22 digits
-- before the point, or whose sum has, fails with DuckDB's overflow error
-- rather than losing digits.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_pg_avg(x BIGINT) AS
        mallard_catalog.pg.mallard_avg_quotient(CAST(sum(x) AS HUGEINT), 0, count(x)),
    (x DECIMAL(38,16)) AS
        mallard_catalog.pg.mallard_avg_quotient(
            CAST(trunc(sum(x)) AS HUGEINT),
            CAST((sum(x) - trunc(sum(x))) * 10000000000000000 AS HUGEINT),
            count(x)),
    (x) AS avg(x);
