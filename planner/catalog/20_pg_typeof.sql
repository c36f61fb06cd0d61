-- pg_typeof(value) names the type a value is presented as, as PostgreSQL
-- spells it ('integer', 'text', 'numeric', 'integer[]').
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_typeof(value) AS
    COALESCE(mallard_catalog.pg.mallard_oid_name(mallard_catalog.pg.mallard_type_oid(typeof(value))), 'text');
