-- The basics through psql: DDL, DML tags, types, errors, transactions.
CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR, price DECIMAL(10,2), added DATE, tags VARCHAR[]);
INSERT INTO items VALUES (1, 'apple', 1.50, DATE '2024-01-02', ['fruit', 'red']),
                         (2, 'bread', 3.25, DATE '2024-02-03', []),
                         (3, NULL, NULL, NULL, NULL);
SELECT * FROM items ORDER BY id;
UPDATE items SET price = price * 2 WHERE id < 3;
DELETE FROM items WHERE id = 3;
SELECT count(*) AS n, sum(price) AS total FROM items;
SELECT true AS t, 1::SMALLINT AS s, 2::BIGINT AS b, 1.5::FLOAT AS f, 0.1::DOUBLE AS d,
       'x y'::VARCHAR AS v, '\x6162'::BLOB AS bl, TIMESTAMP '2024-05-06 07:08:09.5' AS ts,
       TIMESTAMPTZ '2024-05-06 07:08:09+00' AS tstz, TIME '10:11:12' AS tm,
       INTERVAL '1 year 2 months 3 days 04:05:06' AS iv, '{"a": 1}'::JSON AS j,
       [1, 2, NULL] AS l, {'k': 1} AS st;
-- errors keep the session usable
SELECT * FROM no_such_table;
SELEC 1;
INSERT INTO items VALUES (1, 'dup', 0, NULL, NULL);
-- a failed transaction block refuses work until ROLLBACK
BEGIN;
INSERT INTO items VALUES (10, 'kept?', 1, NULL, NULL);
SELECT 1/'x';
SELECT 1;
ROLLBACK;
SELECT count(*) FROM items WHERE id = 10;
BEGIN;
INSERT INTO items VALUES (11, 'kept', 1, NULL, NULL);
COMMIT;
SELECT name FROM items WHERE id = 11;
-- several statements in one message run as one implicit transaction
\set QUIET on
SELECT 1 AS a \; SELECT 2 AS b;
\set QUIET off
-- COPY through psql
\copy items (id, name) FROM 'items.csv' WITH (FORMAT csv, HEADER)
SELECT id, name FROM items WHERE id >= 100 ORDER BY id;
\copy (SELECT id, name FROM items WHERE id >= 100 ORDER BY id) TO STDOUT WITH CSV HEADER
COPY items (id, name) FROM STDIN;
200	tab\tinside
201	\N
\.
SELECT id, name, name IS NULL AS is_null FROM items WHERE id >= 200 ORDER BY id;
COPY items (id, name) FROM STDIN WITH (FORMAT csv);
300,ok
301
\.
SELECT count(*) FROM items WHERE id >= 300;
