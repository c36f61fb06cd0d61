-- pg_get_constraintdef(con_oid[, pretty]) is a constraint's definition as
-- PostgreSQL prints it: PRIMARY KEY (a, b), UNIQUE (a), FOREIGN KEY (a)
-- REFERENCES t(b), CHECK ((a > 0)).
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_constraintdef(p_con) AS (
        SELECT __c.condef
        FROM (SELECT p_con AS v) AS __arg
        JOIN mallard_catalog.pg.mallard_constraint_definitions AS __c ON __c.oid = __arg.v),
    (p_con, p_pretty) AS (
        SELECT __c.condef
        FROM (SELECT p_con AS v) AS __arg
        JOIN mallard_catalog.pg.mallard_constraint_definitions AS __c ON __c.oid = __arg.v);
