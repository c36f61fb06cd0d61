-- quote_ident(text) quotes an identifier as PostgreSQL 15 does: unchanged when
-- it is a lower-case letter or underscore followed by lower-case letters,
-- digits and underscores and is not a keyword other than an unreserved one
-- (the alternatives are pg_get_keywords() WHERE catcode <> 'U' of PostgreSQL
-- 15), else in double quotes with inner quotes doubled. The keywords are one
-- constant pattern, not a list or a subquery, so that the macro is cheap to
-- bind and can be used inside lambdas.
CREATE OR REPLACE MACRO mallard_catalog.pg.quote_ident(ident) AS
    CASE
        WHEN ident IS NULL THEN NULL
        WHEN regexp_full_match(ident, '[a-z_][a-z0-9_]*') AND NOT regexp_full_match(ident,
            'all|analyse|analyze|and|any|array|as|asc|asymmetric|authorization|between|bigint|'
            || 'binary|bit|boolean|both|case|cast|char|character|check|coalesce|collate|'
            || 'collation|column|concurrently|constraint|create|cross|current_catalog|'
            || 'current_date|current_role|current_schema|current_time|current_timestamp|'
            || 'current_user|dec|decimal|default|deferrable|desc|distinct|do|else|end|except|'
            || 'exists|extract|false|fetch|float|for|foreign|freeze|from|full|grant|greatest|'
            || 'group|grouping|having|ilike|in|initially|inner|inout|int|integer|intersect|'
            || 'interval|into|is|isnull|join|lateral|leading|least|left|like|limit|localtime|'
            || 'localtimestamp|national|natural|nchar|none|normalize|not|notnull|null|nullif|'
            || 'numeric|offset|on|only|or|order|out|outer|overlaps|overlay|placing|position|'
            || 'precision|primary|real|references|returning|right|row|select|session_user|setof|'
            || 'similar|smallint|some|substring|symmetric|table|tablesample|then|time|timestamp|'
            || 'to|trailing|treat|trim|true|union|unique|user|using|values|varchar|variadic|'
            || 'verbose|when|where|window|with|xmlattributes|xmlconcat|xmlelement|xmlexists|'
            || 'xmlforest|xmlnamespaces|xmlparse|xmlpi|xmlroot|xmlserialize|xmltable') THEN ident
        ELSE '"' || replace(ident, '"', '""') || '"'
    END;
