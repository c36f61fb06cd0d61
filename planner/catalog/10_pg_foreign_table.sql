-- pg_foreign_table is empty: Mallard has no foreign tables.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_foreign_table AS
SELECT
    CAST(NULL AS BIGINT) AS ftrelid,
    CAST(NULL AS BIGINT) AS ftserver,
    CAST(NULL AS VARCHAR[]) AS ftoptions
WHERE false;
