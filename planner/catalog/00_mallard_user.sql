-- mallard_user() is the role every session presents as: the session variable
-- mallard_user when the server has set it (SET VARIABLE mallard_user = 'bob'),
-- else 'mallard'. Mallard has one role, the bootstrap superuser with OID 10,
-- which owns every object; pg_roles, current_user and pg_get_userbyid name it
-- through this macro.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_user() AS
    CAST(COALESCE(getvariable('mallard_user'), 'mallard') AS VARCHAR);
