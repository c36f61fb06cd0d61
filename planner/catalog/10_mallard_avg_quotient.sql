-- mallard_avg_quotient(whole, fraction, n) is PostgreSQL's numeric average
-- of n values whose sum is whole + fraction / 10^16 (whole a HUGEINT,
-- fraction a HUGEINT with the sign of the sum and |fraction| < 10^16),
-- rounded half away from zero to 16 decimal places, as DECIMAL(38,16); NULL
-- when n is 0. DuckDB divides decimals in DOUBLE, so the quotient is taken
-- in integers: the whole part by n, then the remainder and the fraction,
-- scaled by 10^16, by n; no intermediate leaves HUGEINT for any |sum| <
-- 10^22 and n < 2^63. DuckDB's // and % truncate toward zero.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_avg_quotient(whole, fraction, n) AS
    CASE WHEN n = 0 THEN NULL ELSE
        ((whole // n) * 10000000000000000
            + (2 * ((whole % n) * 10000000000000000 + fraction) + sign((whole % n) * 10000000000000000 + fraction) * n) // (2 * n))
        * 0.0000000000000001
    END;
