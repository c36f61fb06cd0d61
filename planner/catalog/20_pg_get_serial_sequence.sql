-- pg_get_serial_sequence(table_name, column_name) is the sequence a column's
-- default draws from (DEFAULT nextval('seq')), schema-qualified, or NULL.
-- table_name may be qualified and quoted; column_name is taken as written.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_serial_sequence(p_table, p_column) AS (
    SELECT CASE WHEN s.seq LIKE '%.%' THEN s.seq
        ELSE mallard_catalog.pg.quote_ident(s.nspname) || '.' || mallard_catalog.pg.quote_ident(s.seq) END
    FROM (
        SELECT c.nspname, regexp_extract(c.column_default, '^nextval\(''([^'']+)''', 1) AS seq
        FROM (SELECT mallard_catalog.pg.mallard_ident_parts(p_table) AS p) AS q
        JOIN mallard_catalog.pg.mallard_columns AS c
            ON c.relname = q.p[-1]
            AND c.nspname = CASE WHEN len(q.p) > 1 THEN q.p[-2] ELSE system.main.current_schema() END
        WHERE c.attname = p_column
    ) AS s
    WHERE s.seq <> ''
);
