-- mallard_scalar_typmod(data_type) is the type modifier a scalar DuckDB type
-- is presented with, as pgcodec.TypeFor gives it: numeric(p, s) for
-- DECIMAL(p,s), numeric(20, 0) for UBIGINT, numeric(39, 0) for HUGEINT and
-- UHUGEINT (encoded as PostgreSQL does, ((p << 16) | s) + 4), else -1.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_scalar_typmod(data_type) AS
    CAST(CASE
        WHEN data_type LIKE 'DECIMAL(%' THEN
            ((CAST(regexp_extract(data_type, '^DECIMAL\((\d+),\s*(\d+)\)$', 1) AS INTEGER) << 16)
              | CAST(regexp_extract(data_type, '^DECIMAL\((\d+),\s*(\d+)\)$', 2) AS INTEGER)) + 4
        WHEN data_type = 'UBIGINT' THEN (20 << 16) + 4
        WHEN data_type IN ('HUGEINT', 'UHUGEINT') THEN (39 << 16) + 4
        ELSE -1
    END AS INTEGER);
