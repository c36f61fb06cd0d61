-- mallard_oid_name(type_oid) is format_type(type_oid, NULL) for the types
-- Mallard presents values as (and the pseudo-types its functions take), as a
-- list lookup with no subquery, so that it can be used inside lambdas; NULL
-- for any other type.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_oid_name(type_oid) AS
    ['boolean', 'bytea', 'name', 'bigint', 'smallint', 'integer', 'text', 'oid', 'json',
     'real', 'double precision', 'unknown', 'character', 'character varying', 'date',
     'time without time zone', 'timestamp without time zone', 'timestamp with time zone',
     'interval', 'time with time zone', 'bit', 'bit varying', 'numeric', 'uuid', 'jsonb',
     'boolean[]', 'bytea[]', 'name[]', 'bigint[]', 'smallint[]', 'integer[]', 'text[]', 'oid[]',
     'json[]', 'real[]', 'double precision[]', 'character[]', 'character varying[]', 'date[]',
     'time without time zone[]', 'timestamp without time zone[]', 'timestamp with time zone[]',
     'interval[]', 'time with time zone[]', 'bit[]', 'bit varying[]', 'numeric[]', 'uuid[]',
     'jsonb[]', '"any"', 'anyarray', 'anyelement', 'record', 'void', '"char"', '"char"[]',
     'int2vector', 'oidvector'][list_position(
    [16, 17, 19, 20, 21, 23, 25, 26, 114,
     700, 701, 705, 1042, 1043, 1082,
     1083, 1114, 1184,
     1186, 1266, 1560, 1562, 1700, 2950, 3802,
     1000, 1001, 1003, 1016, 1005, 1007, 1009, 1028,
     199, 1021, 1022, 1014, 1015, 1182,
     1183, 1115, 1185,
     1187, 1270, 1561, 1563, 1231, 2951,
     3807, 2276, 2277, 2283, 2249, 2278, 18, 1002,
     22, 30], type_oid)];
