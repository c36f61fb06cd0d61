-- acldefault(type, owner) is NULL, as every *acl column of Mallard's
-- catalog is: Mallard has no privileges to grant, so an object's ACL is
-- always its default one, which pg_dump then leaves out of a dump.
CREATE OR REPLACE MACRO mallard_catalog.pg.acldefault(objtype, owner) AS CAST(NULL AS VARCHAR[]);
