-- mallard_constraint_definitions prints the constraints of
-- mallard_constraints as pg_get_constraintdef does: PRIMARY KEY (a, b),
-- UNIQUE (a), FOREIGN KEY (a) REFERENCES t(b), CHECK ((a > 0)). The
-- referenced table (always in the constraint's schema, in DuckDB) is
-- qualified when its schema is not on the search path, as Postgres
-- qualifies it: pg_dump, which empties the path, then writes a definition
-- that restores in any schema.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_constraint_definitions AS
SELECT
    oid,
    CASE contype
        WHEN 'p' THEN 'PRIMARY KEY ('
        WHEN 'u' THEN 'UNIQUE ('
        WHEN 'f' THEN 'FOREIGN KEY ('
        ELSE 'CHECK ('
    END || CASE WHEN contype = 'c' THEN conbin ELSE
        array_to_string(list_transform(constraint_column_names, n -> mallard_catalog.pg.quote_ident(n)), ', ')
    END || ')' || CASE WHEN contype = 'f' THEN
        ' REFERENCES ' || CASE WHEN list_contains(system.main.current_schemas(false), nspname) THEN ''
            ELSE mallard_catalog.pg.quote_ident(nspname) || '.' END
        || mallard_catalog.pg.quote_ident(referenced_table) || '('
        || array_to_string(list_transform(referenced_column_names, n -> mallard_catalog.pg.quote_ident(n)), ', ')
        || ')'
    ELSE '' END AS condef
FROM mallard_catalog.pg.mallard_constraints;
