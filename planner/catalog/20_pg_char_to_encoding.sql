-- pg_char_to_encoding(name) is the number of an encoding: 6 for UTF8, 0 for
-- SQL_ASCII, -1 for any encoding Mallard does not speak.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_char_to_encoding(name) AS
    CASE
        WHEN name IS NULL THEN NULL
        WHEN upper(replace(name, '-', '')) IN ('UTF8', 'UNICODE') THEN 6
        WHEN upper(name) = 'SQL_ASCII' THEN 0
        ELSE -1
    END;
