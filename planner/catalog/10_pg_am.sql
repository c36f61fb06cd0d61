-- pg_am lists PostgreSQL 15's access methods with their OIDs. Mallard's
-- tables are shown with heap (2) and its indexes, DuckDB ART indexes, with
-- btree (403).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_am AS
SELECT CAST(oid AS BIGINT) AS oid, CAST(amname AS pg_name) AS amname, amhandler,
    CAST(amtype AS pg_char) AS amtype
FROM (VALUES
    (2, 'heap', 'heap_tableam_handler', 't'),
    (403, 'btree', 'bthandler', 'i'),
    (405, 'hash', 'hashhandler', 'i'),
    (783, 'gist', 'gisthandler', 'i'),
    (2742, 'gin', 'ginhandler', 'i'),
    (4000, 'spgist', 'spghandler', 'i'),
    (3580, 'brin', 'brinhandler', 'i')
) AS a(oid, amname, amhandler, amtype);
