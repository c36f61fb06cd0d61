-- mallard_database_oid() is pg_database.oid of the one database a session
-- sees, current_database(). It is fixed: PostgreSQL gives the first database
-- created after initdb OID 16384 (FirstNormalObjectId), and DuckDB's own
-- database OIDs change from run to run.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_database_oid() AS CAST(16384 AS BIGINT);
