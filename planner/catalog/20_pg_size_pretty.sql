-- pg_size_pretty(size) prints a size in bytes as PostgreSQL 15 does: bytes
-- below 10 kB, then kB, MB, GB, TB and PB, each unit used up to 20479 of it,
-- rounding half away from zero.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_size_pretty(size) AS
    CASE
        WHEN size IS NULL THEN NULL
        WHEN abs(size) < 10240 THEN CAST(CAST(size AS BIGINT) AS VARCHAR) || ' bytes'
        WHEN abs(CAST(size AS BIGINT) >> 9) < 20479
            THEN CAST(((CAST(size AS BIGINT) >> 9) + sign(size)) // 2 AS VARCHAR) || ' kB'
        WHEN abs(CAST(size AS BIGINT) >> 19) < 20479
            THEN CAST(((CAST(size AS BIGINT) >> 19) + sign(size)) // 2 AS VARCHAR) || ' MB'
        WHEN abs(CAST(size AS BIGINT) >> 29) < 20479
            THEN CAST(((CAST(size AS BIGINT) >> 29) + sign(size)) // 2 AS VARCHAR) || ' GB'
        WHEN abs(CAST(size AS BIGINT) >> 39) < 20479
            THEN CAST(((CAST(size AS BIGINT) >> 39) + sign(size)) // 2 AS VARCHAR) || ' TB'
        ELSE CAST(((CAST(size AS BIGINT) >> 49) + sign(size)) // 2 AS VARCHAR) || ' PB'
    END;
