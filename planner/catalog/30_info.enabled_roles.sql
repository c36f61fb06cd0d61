-- information_schema.enabled_roles lists Mallard's one role.
CREATE OR REPLACE VIEW mallard_catalog.info.enabled_roles AS
SELECT
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS role_name;
