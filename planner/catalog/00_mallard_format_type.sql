-- mallard_format_type(typname, typmod) is format_type for a type that is not
-- an array, given its pg_type.typname, spelled as PostgreSQL 15 spells it:
-- SQL names for the types that have one ('integer', 'character varying(10)',
-- 'numeric(10,2)', 'timestamp(3) with time zone'), "char", "any" and "bit"
-- quoted as PostgreSQL quotes them, any other type by name followed by its
-- modifier. A NULL typmod means none was given: bpchar is then 'character'
-- and bit 'bit', against 'bpchar' and '"bit"' for typmod -1.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_format_type(typname, typmod) AS
    CASE
        WHEN typname = 'bool' THEN 'boolean'
        WHEN typname = 'int2' THEN 'smallint'
        WHEN typname = 'int4' THEN 'integer'
        WHEN typname = 'int8' THEN 'bigint'
        WHEN typname = 'float4' THEN 'real'
        WHEN typname = 'float8' THEN 'double precision'
        WHEN typname = 'bpchar' THEN CASE
            WHEN typmod IS NULL THEN 'character'
            WHEN typmod < 0 THEN 'bpchar'
            WHEN typmod >= 4 THEN 'character(' || (typmod - 4) || ')'
            ELSE 'character' END
        WHEN typname = 'varchar' THEN 'character varying'
            || CASE WHEN typmod >= 4 THEN '(' || (typmod - 4) || ')' ELSE '' END
        WHEN typname = 'numeric' THEN 'numeric'
            || CASE WHEN typmod >= 4
                THEN '(' || ((typmod - 4) >> 16) || ',' || ((typmod - 4) & 65535) || ')' ELSE '' END
        WHEN typname IN ('time', 'timetz', 'timestamp', 'timestamptz') THEN
            CASE WHEN typname LIKE 'timestamp%' THEN 'timestamp' ELSE 'time' END
            || CASE WHEN typmod >= 0 THEN '(' || typmod || ')' ELSE '' END
            || CASE WHEN typname LIKE '%tz' THEN ' with time zone' ELSE ' without time zone' END
        WHEN typname = 'interval' THEN 'interval'
            || CASE WHEN typmod >= 0 AND (typmod >> 16) = 32767 AND (typmod & 65535) <> 65535
                THEN '(' || (typmod & 65535) || ')' ELSE '' END
        WHEN typname = 'bit' THEN CASE
            WHEN typmod IS NULL THEN 'bit'
            WHEN typmod < 0 THEN '"bit"'
            ELSE 'bit(' || typmod || ')' END
        WHEN typname = 'varbit' THEN 'bit varying'
            || CASE WHEN typmod >= 0 THEN '(' || typmod || ')' ELSE '' END
        WHEN typname IN ('char', 'any') THEN '"' || typname || '"'
            || CASE WHEN typmod >= 0 THEN '(' || typmod || ')' ELSE '' END
        ELSE mallard_catalog.pg.quote_ident(typname)
            || CASE WHEN typmod >= 0 THEN '(' || typmod || ')' ELSE '' END
    END;
