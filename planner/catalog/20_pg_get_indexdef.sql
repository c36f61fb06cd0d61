-- pg_get_indexdef(index_oid) is the CREATE INDEX statement of an index as
-- PostgreSQL prints it; pg_get_indexdef(index_oid, column, pretty) the
-- column-th key (a column name, quoted if needed, or an expression), or the
-- whole statement for column 0.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_indexdef(p_index) AS (
        SELECT indexdef FROM mallard_catalog.pg.mallard_indexes WHERE indexrelid = p_index),
    (p_index, p_col, p_pretty) AS (
        SELECT CASE WHEN p_col = 0 THEN indexdef ELSE keydefs[p_col] END
        FROM mallard_catalog.pg.mallard_indexes WHERE indexrelid = p_index);
