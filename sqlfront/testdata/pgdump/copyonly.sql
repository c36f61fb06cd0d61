-- Arrays (and bytea), restored from the COPY form and from --inserts dumps,
-- where an array value is a string constant ('{1,2,3}') that Mallard reads
-- as a list only where it goes to a list column: the text and json columns
-- keep their braces. The gin index cannot be built on a list: it is not
-- created, with a NOTICE.
CREATE TABLE public.tagged (id bigserial PRIMARY KEY, ia integer[], ta text[], fa float8[], bin bytea, note text, doc json);
CREATE INDEX tagged_ta ON public.tagged USING gin (ta);
INSERT INTO public.tagged (ia, ta, fa, bin, note, doc) VALUES ('{1,2,3}', '{a,"b,c","with space",NULL}', '{0.5,-1}', '\xdeadbeef', '{not,a,list}', '{}'),
  (NULL, '{}', '{}', '\x', '{}', '{"a": [1, 2]}'), ('{NULL}', '{"{brace}"}', NULL, NULL, NULL, NULL),
  ('{-7}', '{"a b",c}', '{1e3}', NULL, '{"a b",c}', '[]');
