-- col_description(table_oid, column_number) is the comment on a column.
CREATE OR REPLACE MACRO mallard_catalog.pg.col_description(p_rel, p_col) AS (
    SELECT min(__d.description)
    FROM (SELECT p_rel AS v, p_col AS col) AS __arg
    JOIN mallard_catalog.pg.pg_description AS __d
        ON __d.objoid = __arg.v AND __d.classoid = 1259 AND __d.objsubid = __arg.col
);
