-- mallard_regtype_name(type_oid) is type_oid::regtype::text: the type's name
-- as format_type(type_oid, NULL) spells it; the number itself for an unknown
-- OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regtype_name(p_type) AS
    CASE
        WHEN p_type IS NULL THEN NULL
        WHEN mallard_catalog.pg.format_type(p_type, NULL) = '???' THEN CAST(p_type AS VARCHAR)
        ELSE mallard_catalog.pg.format_type(p_type, NULL)
    END;
