-- psql's backslash commands introspect pg_catalog: they must work on Mallard.
CREATE TABLE meta_customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, email VARCHAR UNIQUE);
CREATE TABLE meta_orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES meta_customers (id),
                          total DECIMAL(10,2) DEFAULT 0, placed DATE);
CREATE VIEW meta_big_orders AS SELECT * FROM meta_orders WHERE total > 100;
COMMENT ON TABLE meta_orders IS 'one row per order';
\dn
\dt meta_*
\dv meta_*
\d meta_orders
\d+ meta_customers
\di meta_*
\df quote_ident
\df+ upper
\dd
\dd meta_*
\du
\x on
SELECT id, name FROM meta_customers LIMIT 1;
\x off
INSERT INTO meta_customers VALUES (1, 'Ada', 'ada@example.org');
\copy meta_customers TO STDOUT WITH CSV HEADER
\conninfo
