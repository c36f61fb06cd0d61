-- pg_database_size(name or oid) is the size of the current database's
-- storage, used blocks times block size, whichever database is named.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_database_size(p_db) AS (
    SELECT CAST(used_blocks * block_size AS BIGINT) FROM pragma_database_size()
    WHERE database_name = system.main.current_database()
);
