-- array_remove(array, value) is the array without the elements equal to
-- value (a NULL value removes the NULLs), as in Postgres.
CREATE OR REPLACE MACRO mallard_catalog.pg.array_remove(arr, elem) AS list_filter(arr, lambda x: x IS DISTINCT FROM elem);
