-- set_config(name, value, is_local) over a query's rows: a SET in disguise
-- that Mallard cannot honour row by row, so it fails for the first row (a
-- statement that only calls set_config is a SET, see planner/setting.go).
-- Over no rows, as in pg_dump's probe of a setting Mallard lacks, it does
-- nothing; a NULL name is NULL.
CREATE OR REPLACE MACRO mallard_catalog.pg.set_config(name, value, is_local) AS
    CASE WHEN name IS NULL THEN NULL
    ELSE CAST(error('set_config() over the rows of a query is not supported by Mallard: use SET') AS VARCHAR) END;
