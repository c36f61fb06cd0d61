-- information_schema.key_column_usage lists the columns of PRIMARY KEY,
-- UNIQUE and FOREIGN KEY constraints in key order; for a foreign key,
-- position_in_unique_constraint is the referenced column's position in the
-- referenced key.
CREATE OR REPLACE VIEW mallard_catalog.info.key_column_usage AS
SELECT
    CAST(current_database() AS pg_name) AS constraint_catalog,
    CAST(k.nspname AS pg_name) AS constraint_schema,
    CAST(k.conname AS pg_name) AS constraint_name,
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(k.nspname AS pg_name) AS table_schema,
    CAST(k.relname AS pg_name) AS table_name,
    CAST(k.column_name AS pg_name) AS column_name,
    CAST(k.pos AS INTEGER) AS ordinal_position,
    CAST(CASE WHEN k.contype = 'f' THEN list_position(list_transform(u.constraint_column_names, x -> lower(x)), lower(k.referenced_column_names[k.pos])) END AS INTEGER) AS position_in_unique_constraint
FROM (
    SELECT c.*, unnest(c.constraint_column_names) AS column_name,
        generate_subscripts(c.constraint_column_names, 1) AS pos
    FROM mallard_catalog.pg.mallard_constraints AS c
    WHERE c.contype IN ('p', 'u', 'f')
) AS k
LEFT JOIN mallard_catalog.pg.mallard_constraints AS u
    ON k.contype = 'f' AND u.contype IN ('p', 'u') AND u.conindid = k.conindid;
