-- mallard_signatures holds the declared signatures of functions registered
-- outside the catalog (Mallard's table functions, which DuckDB lists with
-- every argument as VARCHAR, in no order, with the hidden caller argument):
-- one row per function, filled by the statements of catalog.Signatures
-- after the catalog is installed. mallard_functions shows a function of the
-- system catalog by its row here when it has one. args, identity_args and
-- result are what pg_get_function_arguments, pg_get_function_identity_arguments
-- and pg_get_function_result print; argnames, argmodes and allargtypes are
-- pg_proc's proargnames, proargmodes and proallargtypes (the input
-- arguments, then a RETURNS TABLE's columns, mode 't'), NULL where PostgreSQL
-- has NULL.
CREATE OR REPLACE TABLE mallard_catalog.pg.mallard_signatures (
    proname VARCHAR PRIMARY KEY,
    args VARCHAR NOT NULL,
    identity_args VARCHAR NOT NULL,
    result VARCHAR NOT NULL,
    argtypes BIGINT[] NOT NULL,
    argnames VARCHAR[] NOT NULL,
    allargtypes BIGINT[],
    argmodes VARCHAR[],
    nargdefaults INTEGER NOT NULL
);
