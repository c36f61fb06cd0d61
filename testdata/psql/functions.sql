-- psql's \df shows Mallard's table functions with their declared arguments,
-- in order, with their types and defaults, and their result columns; the
-- hidden argument that carries the session is not among them.
\df train*
\x on
\df+ forecast
\x off
SELECT pg_get_function_arguments(oid) AS args, pg_get_function_result(oid) AS result
FROM pg_proc WHERE proname = 'attention';
SELECT pg_get_functiondef(oid) FROM pg_proc WHERE proname = 'evaluate_entities';
SELECT proname, pronargs, pronargdefaults, proargnames, proargmodes, proallargtypes
FROM pg_proc WHERE proname IN ('attention', 'forecast') ORDER BY proname;
