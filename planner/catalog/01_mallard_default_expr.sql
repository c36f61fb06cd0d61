-- mallard_default_expr(column_default, type_oid) is a column default, as
-- DuckDB prints it, printed as PostgreSQL prints it (pg_get_expr of
-- pg_attrdef.adbin, information_schema.columns.column_default), for a column
-- presented as type type_oid. PostgreSQL stores a default coerced to its
-- column's type and prints the coercion: a string literal with a cast to that
-- type ('none'::text), a sequence name with its cast to regclass
-- (nextval('t_id_seq'::regclass)), which ORMs match to find serial columns.
-- DuckDB keeps both bare. An unqualified sequence name is qualified with
-- schema_name, the table's schema, when that is not on the search path, as
-- Postgres prints a regclass (pg_dump, which empties the path, then writes
-- a default that restores in any schema). Any other default is printed as
-- DuckDB prints it.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_default_expr(column_default, type_oid, schema_name) AS
    CASE
        WHEN regexp_full_match(column_default, '''([^'']|'''')*''') THEN
            column_default || COALESCE('::' || mallard_catalog.pg.mallard_oid_name(type_oid), '')
        ELSE regexp_replace(column_default, '^nextval\(''((?:[^'']|'''')*)''\)$', 'nextval(''' ||
            CASE WHEN contains(column_default, '.') OR list_contains(system.main.current_schemas(false), schema_name) THEN ''
            ELSE mallard_catalog.pg.quote_ident(schema_name) || '.' END || '\1''::regclass)')
    END;
