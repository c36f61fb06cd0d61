-- mallard_type_typmod(data_type) is the type modifier a column of DuckDB type
-- data_type is described with, pg_attribute.atttypmod. An array carries its
-- element's modifier (DECIMAL(10,2)[] is numeric(10,2)[]), as in PostgreSQL;
-- a list presented as json has none.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_type_typmod(data_type) AS
    CASE
        WHEN mallard_catalog.pg.mallard_is_array(data_type) THEN
            mallard_catalog.pg.mallard_scalar_typmod(regexp_replace(data_type, '\[\d*\]$', ''))
        WHEN data_type LIKE '%]' THEN -1
        ELSE mallard_catalog.pg.mallard_scalar_typmod(data_type)
    END;
