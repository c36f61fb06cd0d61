-- mallard_pg_sign(x, w) is PostgreSQL's sign(x), where w has x's type:
-- float8 for floats and the integers Postgres promotes to float8, numeric
-- for numerics, where DuckDB's sign returns TINYINT for every type.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_pg_sign(x, w DOUBLE) AS CAST(sign(x) AS DOUBLE),
    (x, w DECIMAL(38,16)) AS CAST(sign(x) AS DECIMAL(1,0)),
    (x, w) AS sign(x);
