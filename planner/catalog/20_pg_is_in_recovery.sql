-- pg_is_in_recovery() is false: Mallard is never a standby.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_is_in_recovery() AS false;
