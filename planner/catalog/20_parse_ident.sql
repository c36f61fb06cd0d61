-- parse_ident(text[, strict]): the parts of a qualified name, unquoted
-- ("Public".orders gives Public and orders). Dots inside quotes are not
-- split apart: a simplification of Postgres' parser that Grafana's column
-- picker, which passes names it built itself, does not notice.
CREATE OR REPLACE MACRO mallard_catalog.pg.parse_ident(name, strict := true) AS
    list_transform(string_split(name, '.'),
        p -> CASE WHEN starts_with(trim(p), '"') THEN replace(trim(trim(p), '"'), '""', '"') ELSE lower(trim(p)) END)
