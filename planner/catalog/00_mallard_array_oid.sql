-- mallard_array_oid(elem_oid) is the OID of the one-dimensional array type of
-- a scalar type Mallard presents columns as (pgcodec's scalars table), or 0.
-- It is a list lookup rather than a CASE so that a large argument expression
-- is evaluated, and bound, once.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_array_oid(elem_oid) AS
    CAST(COALESCE(
        [1000, 1001, 1002, 1003, 1016, 1005, 1007, 1009, 1028, 199, 1021, 1022, 1014, 1015, 1182,
         1183, 1115, 1185, 1187, 1270, 1561, 1563, 1231, 2951, 3807, 1008, 791, 2210, 2211, 4090][list_position(
        [16, 17, 18, 19, 20, 21, 23, 25, 26, 114, 700, 701, 1042, 1043, 1082,
         1083, 1114, 1184, 1186, 1266, 1560, 1562, 1700, 2950, 3802, 24, 790, 2205, 2206, 4089], elem_oid)],
        0) AS BIGINT);
