-- pg_options_to_table(options) lists an options array (reloptions,
-- fdwoptions: 'name=value' texts) as rows of option_name, option_value.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_options_to_table(p_options) AS TABLE
    SELECT CAST(split_part(__o.o, '=', 1) AS VARCHAR) AS option_name,
        CAST(substr(__o.o, strpos(__o.o, '=') + 1) AS VARCHAR) AS option_value
    FROM (SELECT unnest(p_options) AS o) AS __o;
