-- mallard_pg_date_trunc(field, d, w) is PostgreSQL's date_trunc of two
-- arguments, where w has d's type: a date is promoted to timestamptz at
-- midnight in the session's time zone and truncated there, giving
-- timestamptz, where DuckDB gives timestamp. Other types are DuckDB's
-- date_trunc, which matches Postgres.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_pg_date_trunc(field, d, w DATE) AS date_trunc(field, CAST(d AS TIMESTAMPTZ)),
    (field, d, w) AS date_trunc(field, d);
