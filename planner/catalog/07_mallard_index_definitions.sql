-- mallard_index_definitions prints the indexes of mallard_indexes as
-- pg_get_indexdef does: keydefs each key (a column name, quoted if needed,
-- or an expression), indexdef the whole CREATE INDEX statement.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_index_definitions AS
WITH k AS (
    SELECT *,
        CASE WHEN keys_are_names
            THEN list_transform(keys, n -> mallard_catalog.pg.quote_ident(n))
            ELSE keys
        END AS keydefs
    FROM mallard_catalog.pg.mallard_indexes
)
SELECT indexrelid, keydefs,
    'CREATE ' || CASE WHEN indisunique THEN 'UNIQUE ' ELSE '' END || 'INDEX '
        || mallard_catalog.pg.quote_ident(relname) || ' ON '
        || mallard_catalog.pg.quote_ident(nspname) || '.' || mallard_catalog.pg.quote_ident(tablename)
        || ' USING btree (' || array_to_string(keydefs, ', ') || ')' AS indexdef,
    relname, nspname, tablename
FROM k;
