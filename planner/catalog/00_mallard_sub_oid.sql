-- mallard_sub_oid(rel_oid, kind, n) is the OID of an object DuckDB gives no
-- OID of its own, derived from the OID of the relation it belongs to:
-- rel_oid*4096 + kind*1024 + n, with
--   kind 0: the n-th constraint of a table (PRIMARY KEY, UNIQUE, FOREIGN KEY,
--           CHECK, counted in DuckDB's order) — pg_constraint.oid;
--   kind 1: the index behind the n-th constraint — pg_class.oid, pg_index.indexrelid;
--   kind 2: the default of column n — pg_attrdef.oid;
--   kind 3: the n-th label of an enum type (rel_oid is the type's OID) — pg_enum.oid.
-- The result is unique while n < 1024 and stable while the table's
-- constraints do not change. DuckDB's own OIDs count up from about 20000,
-- so they stay below these until a database has created tens of millions of
-- catalog entries, and the results fit PostgreSQL's 32-bit OIDs while
-- rel_oid < 524288. mallard_functions numbers the overloads of a DuckDB
-- function the same way, with kind 0.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_sub_oid(rel_oid, kind, n) AS
    CAST(rel_oid AS BIGINT) * 4096 + kind * 1024 + n;
