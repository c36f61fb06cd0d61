-- array_upper(arr, dimension) is the upper bound of a one-dimensional array,
-- its length; NULL for an empty array or another dimension. DuckDB lists,
-- like PostgreSQL arrays, start at 1.
CREATE OR REPLACE MACRO mallard_catalog.pg.array_upper(arr, dimension) AS
    CASE WHEN dimension = 1 AND len(arr) > 0 THEN CAST(len(arr) AS INTEGER) END;
