-- Arrays (and bytea), restored from the COPY form only: in an --inserts dump
-- an array is a string constant that DuckDB does not read as a list (see README).
-- The gin index cannot be built on a list: it is not created, with a NOTICE.
CREATE TABLE public.tagged (id bigserial PRIMARY KEY, ia integer[], ta text[], fa float8[], bin bytea);
CREATE INDEX tagged_ta ON public.tagged USING gin (ta);
INSERT INTO public.tagged (ia, ta, fa, bin) VALUES ('{1,2,3}', '{a,"b,c","with space",NULL}', '{0.5,-1}', '\xdeadbeef'),
  (NULL, '{}', '{}', '\x'), ('{NULL}', '{"{brace}"}', NULL, NULL);
