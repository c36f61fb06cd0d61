-- version() identifies Mallard as PostgreSQL 15.0, which is what clients
-- parse ("PostgreSQL 15"), followed by Mallard's version (the session
-- variable mallard_version, else 0.1.0) and DuckDB's, and the platform in
-- PostgreSQL's spelling.
CREATE OR REPLACE MACRO mallard_catalog.pg.version() AS
    'PostgreSQL 15.0 (Mallard ' || CAST(COALESCE(getvariable('mallard_version'), '0.1.0') AS VARCHAR)
    || ', DuckDB ' || (SELECT library_version FROM pragma_version()) || ') on '
    || (SELECT CASE platform
            WHEN 'linux_amd64' THEN 'x86_64-pc-linux-gnu'
            WHEN 'linux_arm64' THEN 'aarch64-unknown-linux-gnu'
            WHEN 'osx_amd64' THEN 'x86_64-apple-darwin'
            WHEN 'osx_arm64' THEN 'aarch64-apple-darwin'
            WHEN 'windows_amd64' THEN 'x86_64-pc-windows-msvc'
            ELSE platform
        END FROM pragma_platform());
