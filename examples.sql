-- Mallard tour. Start the server with `make run`, then:
--   psql -h 127.0.0.1 -p 5433 -U mallard -f examples.sql
-- Every statement runs on Mallard's embedded DuckDB database.

-- 1. Plain SQL: tables, inserts, queries, as in Postgres.
DROP TABLE IF EXISTS tour_sales;
CREATE TABLE tour_sales (region VARCHAR, month DATE, units INTEGER, price DECIMAL(8,2));
INSERT INTO tour_sales VALUES
  ('north', DATE '2024-01-01', 120, 9.99), ('north', DATE '2024-02-01', 135, 9.99),
  ('south', DATE '2024-01-01',  80, 10.49), ('south', DATE '2024-02-01',  95, 10.49);
SELECT region, sum(units) AS units, sum(units * price) AS revenue
FROM tour_sales GROUP BY region ORDER BY region;

-- 2. DuckDB's own SQL works too: generate a million rows and summarise them.
SELECT count(*) AS n, round(avg(x), 3) AS mean
FROM (SELECT random() AS x FROM range(1000000));

-- 3. Transactions behave like Postgres: a failed block must be rolled back.
BEGIN;
INSERT INTO tour_sales VALUES ('east', DATE '2024-01-01', 10, 1.00);
ROLLBACK;
SELECT count(*) AS regions FROM (SELECT DISTINCT region FROM tour_sales);

-- 4. COPY streams data in and out (psql's \copy uses it).
COPY (SELECT * FROM tour_sales ORDER BY region, month) TO STDOUT WITH (FORMAT csv, HEADER);

-- 5. It passes for Postgres 15 where clients look: settings, the catalog, cursors.
SHOW server_version;
SET application_name = 'mallard-tour';
SELECT current_setting('application_name') AS app, version() LIKE 'PostgreSQL 15%' AS looks_like_pg15;
SELECT table_name, table_type FROM information_schema.tables
WHERE table_schema = 'public' AND table_name LIKE 'tour%' ORDER BY table_name;
SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type
FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'tour_sales'::regclass AND a.attnum > 0
ORDER BY a.attnum;
BEGIN;
DECLARE tour CURSOR FOR SELECT region, units FROM tour_sales ORDER BY units DESC;
FETCH 2 FROM tour;
CLOSE tour;
COMMIT;

DROP TABLE tour_sales;
