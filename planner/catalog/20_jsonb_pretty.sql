-- jsonb_pretty(jsonb) is PostgreSQL's: four spaces a level, "key": value, and
-- an empty object or array opened on its line and closed on the next at the
-- line's indentation ({ and } where DuckDB's json_pretty writes {}). Two
-- passes, since a match takes the newline that ends its line and so skips the
-- line after it. Keys keep their order, where PostgreSQL's jsonb sorts them.
CREATE OR REPLACE MACRO mallard_catalog.pg.jsonb_pretty(j) AS
    CASE
        WHEN j IS NULL THEN NULL
        ELSE trim(regexp_replace(regexp_replace(chr(10) || json_pretty(j::JSON) || chr(10),
            '(\n( *)[^\n]*)([\[{])([\]}])(,?\n)', '\1\3' || chr(10) || '\2\4\5', 'g'),
            '(\n( *)[^\n]*)([\[{])([\]}])(,?\n)', '\1\3' || chr(10) || '\2\4\5', 'g'), chr(10))
    END;
