-- A schema made in Mallard, for pg_dump against Mallard: serial keys in
-- public and in a schema of its own (whose sequence names pg_dump must
-- qualify), a foreign key, a check, a unique key, an index, a comment, a
-- sequence in use, bytea and NULLs.
CREATE SCHEMA shop;
CREATE TABLE shop.customer (id serial PRIMARY KEY, email text NOT NULL UNIQUE, photo bytea);
CREATE TABLE shop.orders (id bigserial PRIMARY KEY, customer_id integer REFERENCES shop.customer(id), qty integer CHECK (qty > 0), placed date DEFAULT '2024-01-01');
CREATE INDEX orders_placed ON shop.orders (placed);
COMMENT ON TABLE shop.customer IS 'people who buy';
CREATE SEQUENCE public.ticket START 100;
SELECT nextval('public.ticket'), nextval('public.ticket');
CREATE TABLE public.note (id integer PRIMARY KEY, body text, score double precision, seen timestamp);
INSERT INTO shop.customer (email, photo) VALUES ('a@x.org', '\xdeadbeef'), ('b@x.org', NULL), ('c@x.org', '\x');
INSERT INTO shop.orders (customer_id, qty) VALUES (1, 2), (1, 5), (3, 1);
INSERT INTO public.note VALUES (1, 'tab	and ''quote''', 0.5, '2024-05-06 07:08:09'), (2, NULL, NULL, NULL);
-- Views naming their relations without a schema, resolved by the search
-- path when they are made (shop's view finds shop.orders through it), and
-- one with a WITH query, whose name is not a relation's.
SET search_path = shop, public;
CREATE VIEW shop.big_orders AS SELECT o.id, c.email, o.qty FROM orders o JOIN customer c ON c.id = o.customer_id WHERE o.qty > 1;
RESET search_path;
CREATE VIEW public.scored_notes AS SELECT id, score FROM note WHERE score IS NOT NULL;
CREATE VIEW public.order_counts AS WITH counted AS (SELECT customer_id, count(*) AS n FROM shop.orders GROUP BY customer_id) SELECT c.email, counted.n FROM counted JOIN shop.customer c ON c.id = counted.customer_id;
