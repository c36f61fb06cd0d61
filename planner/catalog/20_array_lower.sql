-- array_lower(arr, dimension) is the lower bound of a one-dimensional array,
-- 1, or 0 for an int2vector or oidvector (mallard_first_subscript); NULL for
-- an empty array or another dimension.
CREATE OR REPLACE MACRO mallard_catalog.pg.array_lower(arr, dimension) AS
    CASE WHEN dimension = 1 AND len(arr) > 0 THEN mallard_catalog.pg.mallard_first_subscript(arr) END;
