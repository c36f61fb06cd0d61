-- string_to_array(str, delimiter) splits str at each delimiter, as
-- PostgreSQL does where DuckDB's string_split differs: an empty str is an
-- empty array, a NULL delimiter splits str into its characters and an empty
-- one leaves str whole.
--
-- PostgreSQL also lets any function be a FROM item, one row of one column;
-- Grafana splits the search_path with FROM string_to_array(...) s and reads
-- s[i]. DuckDB looks up a FROM item among table functions only, so a table
-- macro of the same name answers there (the planner names its column after
-- the FROM item's alias, as Postgres does).
CREATE OR REPLACE MACRO mallard_catalog.pg.string_to_array(str, delimiter) AS
    CASE
        WHEN str IS NULL THEN NULL
        WHEN str = '' THEN CAST([] AS VARCHAR[])
        WHEN delimiter IS NULL THEN string_split(str, '')
        WHEN delimiter = '' THEN [str]
        ELSE string_split(str, delimiter)
    END;
CREATE OR REPLACE MACRO mallard_catalog.pg.string_to_array(str, delimiter) AS TABLE
    SELECT mallard_catalog.pg.string_to_array(str, delimiter) AS string_to_array;
