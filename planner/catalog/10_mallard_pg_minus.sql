-- mallard_pg_minus(a, b, wa, wb) is PostgreSQL's a - b, where wa and wb have
-- the types of a and b: the difference of two dates is an integer number of
-- days, where DuckDB gives BIGINT; every other pair is DuckDB's a - b.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_pg_minus(a, b, wa DATE, wb DATE) AS CAST(a - b AS INTEGER),
    (a, b, wa, wb) AS a - b;
