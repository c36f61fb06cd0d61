-- txid_current() is the ID of the current transaction, DuckDB's.
CREATE OR REPLACE MACRO mallard_catalog.pg.txid_current() AS CAST(system.main.txid_current() AS BIGINT);
