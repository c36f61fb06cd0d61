-- mallard_type_oid(data_type) is the OID of the PostgreSQL type a column of
-- DuckDB type data_type (as duckdb_columns().data_type spells it) is
-- described with in RowDescription, pg_attribute.atttypid. It must agree with
-- sqlfront/pgcodec.TypeFor; a test checks it for every type pgcodec knows.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_type_oid(data_type) AS
    CASE
        WHEN mallard_catalog.pg.mallard_is_array(data_type) THEN
            mallard_catalog.pg.mallard_array_oid(
                mallard_catalog.pg.mallard_scalar_oid(regexp_replace(data_type, '\[\d*\]$', '')))
        ELSE mallard_catalog.pg.mallard_scalar_oid(data_type)
    END;
