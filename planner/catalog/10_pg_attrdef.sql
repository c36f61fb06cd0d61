-- pg_attrdef lists the column defaults of the current database's tables.
-- adbin holds the default expression as PostgreSQL prints it (see
-- mallard_default_expr), which pg_get_expr returns as is.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_attrdef AS
SELECT
    mallard_catalog.pg.mallard_sub_oid(attrelid, 2, attnum) AS oid,
    CAST(attrelid AS BIGINT) AS adrelid,
    attnum AS adnum,
    column_default AS adbin
FROM mallard_catalog.pg.mallard_columns
WHERE relkind = 'r' AND column_default IS NOT NULL;
