-- col_description(p_rel, p_col) is the comment on a column.
CREATE OR REPLACE MACRO mallard_catalog.pg.col_description(p_rel, p_col) AS (
    SELECT min(description) FROM mallard_catalog.pg.pg_description
    WHERE objoid = p_rel AND classoid = 1259 AND objsubid = p_col
);
