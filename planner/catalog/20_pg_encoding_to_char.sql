-- pg_encoding_to_char(encoding) names an encoding number; Mallard's is always
-- 6, UTF8. Unknown numbers give '', as in PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_encoding_to_char(encoding) AS
    CASE WHEN encoding IS NULL THEN NULL WHEN encoding = 6 THEN 'UTF8' WHEN encoding = 0 THEN 'SQL_ASCII' ELSE '' END;
