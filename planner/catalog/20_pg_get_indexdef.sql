-- pg_get_indexdef(index_oid) is the CREATE INDEX statement of an index as
-- PostgreSQL prints it; pg_get_indexdef(index_oid, column, pretty) the
-- column-th key (a column name, quoted if needed, or an expression), or the
-- whole statement for column 0.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_indexdef(p_index) AS (
        SELECT __i.indexdef
        FROM (SELECT p_index AS v) AS __arg
        JOIN mallard_catalog.pg.mallard_index_definitions AS __i ON __i.indexrelid = __arg.v),
    (p_index, p_col, p_pretty) AS (
        SELECT CASE WHEN __arg.col = 0 THEN __i.indexdef ELSE __i.keydefs[__arg.col] END
        FROM (SELECT p_index AS v, p_col AS col) AS __arg
        JOIN mallard_catalog.pg.mallard_index_definitions AS __i ON __i.indexrelid = __arg.v);
