-- pg_settings lists the PostgreSQL parameters clients read, with the values
-- Mallard actually has, followed by DuckDB's own settings (duckdb_settings(),
-- category 'DuckDB') where their names differ. The PostgreSQL rows' units,
-- categories, descriptions, contexts, types and limits are PostgreSQL 15's;
-- their values are Mallard's fixed ones: a PostgreSQL 15 server in UTF8 and
-- C.UTF-8, presenting dates ISO, MDY and timestamps in UTC, and offering
-- DuckDB's snapshot isolation, which is PostgreSQL's repeatable read. A SET
-- that the planner answers itself is not reflected here; application_name
-- comes from the session variable mallard_application_name.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_settings AS
WITH postgres AS (
    SELECT * FROM (VALUES
        ('application_name', NULL, 'Reporting and Logging / What to Log', 'Sets the application name to be reported in statistics and logs.', 'user', 'string', NULL, NULL, NULL, ''),
        ('array_nulls', NULL, 'Version and Platform Compatibility / Previous PostgreSQL Versions', 'Enable input of NULL elements in arrays.', 'user', 'bool', NULL, NULL, NULL, 'on'),
        ('backslash_quote', NULL, 'Version and Platform Compatibility / Previous PostgreSQL Versions', 'Sets whether "\''" is allowed in string literals.', 'user', 'enum', NULL, NULL, ['safe_encoding', 'on', 'off'], 'safe_encoding'),
        ('block_size', NULL, 'Preset Options', 'Shows the size of a disk block.', 'internal', 'integer', '8192', '8192', NULL, '8192'),
        ('bytea_output', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the output format for bytea.', 'user', 'enum', NULL, NULL, ['escape', 'hex'], 'hex'),
        ('client_encoding', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the client''s character set encoding.', 'user', 'string', NULL, NULL, NULL, 'UTF8'),
        ('client_min_messages', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the message levels that are sent to the client.', 'user', 'enum', NULL, NULL, ['debug5', 'debug4', 'debug3', 'debug2', 'debug1', 'log', 'notice', 'warning', 'error'], 'notice'),
        ('data_checksums', NULL, 'Preset Options', 'Shows whether data checksums are turned on for this cluster.', 'internal', 'bool', NULL, NULL, NULL, 'off'),
        ('DateStyle', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the display format for date and time values.', 'user', 'string', NULL, NULL, NULL, 'ISO, MDY'),
        ('default_tablespace', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the default tablespace to create tables and indexes in.', 'user', 'string', NULL, NULL, NULL, ''),
        ('default_text_search_config', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets default text search configuration.', 'user', 'string', NULL, NULL, NULL, 'pg_catalog.simple'),
        ('default_transaction_isolation', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the transaction isolation level of each new transaction.', 'user', 'enum', NULL, NULL, ['serializable', 'repeatable read', 'read committed', 'read uncommitted'], 'repeatable read'),
        ('default_transaction_read_only', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the default read-only status of new transactions.', 'user', 'bool', NULL, NULL, NULL, 'off'),
        ('escape_string_warning', NULL, 'Version and Platform Compatibility / Previous PostgreSQL Versions', 'Warn about backslash escapes in ordinary string literals.', 'user', 'bool', NULL, NULL, NULL, 'on'),
        ('extra_float_digits', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the number of digits displayed for floating-point values.', 'user', 'integer', '-15', '3', NULL, '1'),
        ('idle_in_transaction_session_timeout', 'ms', 'Client Connection Defaults / Statement Behavior', 'Sets the maximum allowed idle time between queries, when in a transaction.', 'user', 'integer', '0', '2147483647', NULL, '0'),
        ('in_hot_standby', NULL, 'Preset Options', 'Shows whether hot standby is currently active.', 'internal', 'bool', NULL, NULL, NULL, 'off'),
        ('integer_datetimes', NULL, 'Preset Options', 'Shows whether datetimes are integer based.', 'internal', 'bool', NULL, NULL, NULL, 'on'),
        ('IntervalStyle', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the display format for interval values.', 'user', 'enum', NULL, NULL, ['postgres', 'postgres_verbose', 'sql_standard', 'iso_8601'], 'postgres'),
        ('lc_collate', NULL, 'Preset Options', 'Shows the collation order locale.', 'internal', 'string', NULL, NULL, NULL, 'C.UTF-8'),
        ('lc_ctype', NULL, 'Preset Options', 'Shows the character classification and case conversion locale.', 'internal', 'string', NULL, NULL, NULL, 'C.UTF-8'),
        ('lc_messages', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the language in which messages are displayed.', 'superuser', 'string', NULL, NULL, NULL, 'C.UTF-8'),
        ('lc_monetary', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the locale for formatting monetary amounts.', 'user', 'string', NULL, NULL, NULL, 'C.UTF-8'),
        ('lc_numeric', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the locale for formatting numbers.', 'user', 'string', NULL, NULL, NULL, 'C.UTF-8'),
        ('lc_time', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the locale for formatting date and time values.', 'user', 'string', NULL, NULL, NULL, 'C.UTF-8'),
        ('lock_timeout', 'ms', 'Client Connection Defaults / Statement Behavior', 'Sets the maximum allowed duration of any wait for a lock.', 'user', 'integer', '0', '2147483647', NULL, '0'),
        ('max_function_args', NULL, 'Preset Options', 'Shows the maximum number of function arguments.', 'internal', 'integer', '100', '100', NULL, '100'),
        ('max_identifier_length', NULL, 'Preset Options', 'Shows the maximum identifier length.', 'internal', 'integer', '63', '63', NULL, '63'),
        ('max_index_keys', NULL, 'Preset Options', 'Shows the maximum number of index keys.', 'internal', 'integer', '32', '32', NULL, '32'),
        ('password_encryption', NULL, 'Connections and Authentication / Authentication', 'Chooses the algorithm for encrypting passwords.', 'user', 'enum', NULL, NULL, ['md5', 'scram-sha-256'], 'scram-sha-256'),
        ('row_security', NULL, 'Client Connection Defaults / Statement Behavior', 'Enable row security.', 'user', 'bool', NULL, NULL, NULL, 'on'),
        ('search_path', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the schema search order for names that are not schema-qualified.', 'user', 'string', NULL, NULL, NULL, '"$user", public'),
        ('server_encoding', NULL, 'Preset Options', 'Shows the server (database) character set encoding.', 'internal', 'string', NULL, NULL, NULL, 'UTF8'),
        ('server_version', NULL, 'Preset Options', 'Shows the server version.', 'internal', 'string', NULL, NULL, NULL, '15.0'),
        ('server_version_num', NULL, 'Preset Options', 'Shows the server version as an integer.', 'internal', 'integer', '150018', '150018', NULL, '150000'),
        ('standard_conforming_strings', NULL, 'Version and Platform Compatibility / Previous PostgreSQL Versions', 'Causes ''...'' strings to treat backslashes literally.', 'user', 'bool', NULL, NULL, NULL, 'on'),
        ('statement_timeout', 'ms', 'Client Connection Defaults / Statement Behavior', 'Sets the maximum allowed duration of any statement.', 'user', 'integer', '0', '2147483647', NULL, '0'),
        ('synchronous_commit', NULL, 'Write-Ahead Log / Settings', 'Sets the current transaction''s synchronization level.', 'user', 'enum', NULL, NULL, ['local', 'remote_write', 'remote_apply', 'on', 'off'], 'on'),
        ('TimeZone', NULL, 'Client Connection Defaults / Locale and Formatting', 'Sets the time zone for displaying and interpreting time stamps.', 'user', 'string', NULL, NULL, NULL, 'UTC'),
        ('timezone_abbreviations', NULL, 'Client Connection Defaults / Locale and Formatting', 'Selects a file of time zone abbreviations.', 'user', 'string', NULL, NULL, NULL, 'Default'),
        ('transaction_isolation', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the current transaction''s isolation level.', 'user', 'enum', NULL, NULL, ['serializable', 'repeatable read', 'read committed', 'read uncommitted'], 'repeatable read'),
        ('transaction_read_only', NULL, 'Client Connection Defaults / Statement Behavior', 'Sets the current transaction''s read-only status.', 'user', 'bool', NULL, NULL, NULL, 'off')
    ) AS p(name, unit, category, short_desc, context, vartype, min_val, max_val, enumvals, setting)
)
SELECT
    name,
    CASE WHEN name = 'application_name'
        THEN CAST(COALESCE(getvariable('mallard_application_name'), '') AS VARCHAR)
        ELSE setting END AS setting,
    unit, category, short_desc, CAST(NULL AS VARCHAR) AS extra_desc, context, vartype,
    'default' AS source, min_val, max_val, CAST(enumvals AS VARCHAR[]) AS enumvals,
    setting AS boot_val, setting AS reset_val, CAST(NULL AS VARCHAR) AS sourcefile,
    CAST(NULL AS INTEGER) AS sourceline, false AS pending_restart
FROM postgres
UNION ALL
SELECT
    name, value, NULL, 'DuckDB', description, NULL,
    CASE WHEN scope = 'GLOBAL' THEN 'superuser' ELSE 'user' END,
    CASE
        WHEN input_type = 'BOOLEAN' THEN 'bool'
        WHEN input_type IN ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT',
            'UINTEGER', 'UBIGINT', 'HUGEINT') THEN 'integer'
        WHEN input_type IN ('FLOAT', 'DOUBLE') THEN 'real'
        ELSE 'string'
    END,
    'default', NULL, NULL, NULL, value, value, NULL, NULL, false
FROM duckdb_settings()
WHERE lower(name) NOT IN (SELECT lower(name) FROM postgres);
