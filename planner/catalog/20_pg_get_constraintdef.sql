-- pg_get_constraintdef(con_oid[, pretty]) is a constraint's definition as
-- PostgreSQL prints it: PRIMARY KEY (a, b), UNIQUE (a), FOREIGN KEY (a)
-- REFERENCES t(b), CHECK ((a > 0)).
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_constraintdef(p_con) AS (
        SELECT condef FROM mallard_catalog.pg.mallard_constraints WHERE oid = p_con),
    (p_con, p_pretty) AS (
        SELECT condef FROM mallard_catalog.pg.mallard_constraints WHERE oid = p_con);
