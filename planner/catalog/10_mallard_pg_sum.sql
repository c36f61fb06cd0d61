-- mallard_pg_sum(x) is PostgreSQL's sum(x): bigint for smallint and integer
-- arguments, where DuckDB's sum returns HUGEINT (numeric to a client);
-- DuckDB's own sum for every other type, which matches Postgres (numeric
-- for bigint and numeric, float8 for floats). The planner calls it for a
-- plain sum(x), not a window, DISTINCT, FILTER or ordered one; a sum that
-- leaves bigint fails, as in Postgres.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_pg_sum(x INTEGER) AS CAST(sum(x) AS BIGINT),
    (x) AS sum(x);
