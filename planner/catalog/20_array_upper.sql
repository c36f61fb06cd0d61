-- array_upper(arr, dimension) is the upper bound of a one-dimensional array:
-- its length, or one less for an int2vector or oidvector, whose subscripts
-- start at 0 (mallard_first_subscript); NULL for an empty array or another
-- dimension.
CREATE OR REPLACE MACRO mallard_catalog.pg.array_upper(arr, dimension) AS
    CASE WHEN dimension = 1 AND len(arr) > 0 THEN
        CAST(len(arr) AS INTEGER) + mallard_catalog.pg.mallard_first_subscript(arr) - 1 END;
