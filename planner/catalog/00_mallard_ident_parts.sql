-- mallard_ident_parts(name) splits a possibly qualified, possibly quoted
-- name the way PostgreSQL's regclass and regnamespace input does: at dots
-- outside double quotes, each part unquoted (inner "" becomes ") when quoted
-- and folded to lower case when not. 'Public."My Table"' gives
-- ['public', 'My Table'].
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_ident_parts(name) AS
    list_transform(
        regexp_extract_all(name, '"(?:[^"]|"")*"|[^."]+'),
        part -> CASE
            WHEN part LIKE '"%' THEN replace(part[2:-2], '""', '"')
            ELSE lower(trim(part))
        END);
