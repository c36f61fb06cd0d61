-- mallard_regtype_names(type_oids) is type_oids::regtype[]: the list of
-- type OIDs (an oidvector such as pg_proc.proargtypes, or an oid[]) as the
-- names mallard_regtype_name gives them, in order, which is what
-- regtype[]'s output shows ('{integer,text[]}'); a NULL list is NULL and a
-- NULL element stays NULL.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regtype_names(p_types) AS
    CASE WHEN p_types IS NULL THEN NULL ELSE COALESCE((
        SELECT list(mallard_catalog.pg.mallard_regtype_name(__u.t) ORDER BY __u.i)
        FROM (
            SELECT unnest(__arg.v) AS t, unnest(range(1, len(__arg.v) + 1)) AS i
            FROM (SELECT p_types AS v) AS __arg
        ) AS __u
    ), CAST([] AS VARCHAR[])) END;
