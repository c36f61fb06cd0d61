-- pg_client_encoding() is the client encoding, always UTF8.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_client_encoding() AS 'UTF8';
