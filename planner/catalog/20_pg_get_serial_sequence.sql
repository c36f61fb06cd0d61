-- pg_get_serial_sequence(table_name, column_name) is the sequence a column's
-- default draws from (DEFAULT nextval('seq')), schema-qualified, or NULL.
-- table_name may be qualified and quoted; column_name is taken as written.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_serial_sequence(p_table, p_column) AS (
    SELECT CASE WHEN __s.seq LIKE '%.%' THEN __s.seq
        ELSE mallard_catalog.pg.quote_ident(__s.nspname) || '.' || mallard_catalog.pg.quote_ident(__s.seq) END
    FROM (
        SELECT __c.nspname, regexp_extract(__c.column_default, '^nextval\(''([^'']+)''', 1) AS seq
        FROM (SELECT mallard_catalog.pg.mallard_ident_parts(p_table) AS p, p_column AS col) AS __arg
        JOIN mallard_catalog.pg.mallard_columns AS __c
            ON __c.relname = __arg.p[-1] AND __c.attname = __arg.col
            AND __c.nspname = CASE WHEN len(__arg.p) > 1 THEN __arg.p[-2] ELSE system.main.current_schema() END
    ) AS __s
    WHERE __s.seq <> ''
);
