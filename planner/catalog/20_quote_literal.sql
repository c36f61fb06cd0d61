-- quote_literal(value) quotes a value as a string literal, as PostgreSQL
-- does: inner quotes doubled, and when it holds a backslash, backslashes
-- doubled and the literal written E'...'.
CREATE OR REPLACE MACRO mallard_catalog.pg.quote_literal(value) AS
    CASE
        WHEN value IS NULL THEN NULL
        WHEN contains(CAST(value AS VARCHAR), '\')
            THEN 'E''' || replace(replace(CAST(value AS VARCHAR), '\', '\\'), '''', '''''') || ''''
        ELSE '''' || replace(CAST(value AS VARCHAR), '''', '''''') || ''''
    END;
