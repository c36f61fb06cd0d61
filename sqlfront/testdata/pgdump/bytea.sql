-- bytea in every form a dump writes it: COPY's text and --inserts' string
-- constants, which Mallard reads as Postgres does (hex, escapes, NUL bytes).
CREATE TABLE public.blobs (id serial PRIMARY KEY, b bytea, note text);
INSERT INTO public.blobs (b, note) VALUES ('\xdeadbeef', 'hex'), ('\x', 'empty'), (NULL, 'null'),
  ('\000\001\\abc\377', 'escapes'), ('plain', '\x6162 as text'), (decode(repeat('00ff5c27', 300), 'hex'), 'long');
