-- Queries DBeaver's PostgreSQL plugin sends when it connects and when the
-- navigator expands a database, its schemas, tables, columns, keys and
-- indexes. DBeaver binds object oids read by earlier queries as parameters;
-- here subqueries on pg_namespace or pg_class stand in for them.
-- Format: see bi_test.go.

-- dbeaver: database list on connect (prepareReadDatabaseListStatement): oid plus every pg_database column, connectable non-templates or the configured database. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDataSource.java
-- columns: oid, datname, datdba, encoding, datallowconn, datistemplate
SELECT db.oid,db.* FROM pg_catalog.pg_database db WHERE 1 = 1 AND datallowconn AND NOT datistemplate OR db.datname = 'mallard'
ORDER BY db.datname

-- dbeaver: active database when the connection settings name none. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDataSource.java (loadAvailableDatabases)
SELECT current_database()

-- dbeaver: server version string shown in the connection info (column 1). Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDataSource.java (initialize)
SELECT version()

-- dbeaver: default schema and user of an execution context (columns 1 and 2). Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreExecutionContext.java
SELECT current_schema(),session_user

-- dbeaver: search path of an execution context, split on commas with "$user" replaced. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreExecutionContext.java
SHOW search_path

-- dbeaver: switching the active schema rewrites the search path. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreExecutionContext.java (setSearchPath)
SET search_path = public,"$user"

-- dbeaver: probes whether a catalog table exists by selecting nothing from it (isMetaObjectExists, for pg_enum). Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/PostgreUtils.java
SELECT * FROM pg_catalog.pg_enum WHERE 1<>1 LIMIT 1

-- dbeaver: schema list with comments (SchemaCache): oid, n.*, description joined on 'pg_namespace'::regclass. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDatabase.java
-- columns: oid, nspname, nspowner, nspacl, description
-- contains: public
SELECT n.oid,n.*,d.description FROM pg_catalog.pg_namespace n
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=n.oid AND d.objsubid=0 AND d.classoid='pg_namespace'::regclass
 ORDER BY nspname

-- dbeaver: tables, views and sequences of a schema (TableCache) with partition bound and key expressions. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java
-- columns: oid, relname, relnamespace, relkind, relowner, reltuples, relhasindex, description, partition_expr, partition_key
-- contains: customers, orders, order_totals, customer orders
SELECT c.oid,c.*,d.description,pg_catalog.pg_get_expr(c.relpartbound, c.oid) as partition_expr,  pg_catalog.pg_get_partkeydef(c.oid) as partition_key
FROM pg_catalog.pg_class c
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_class'::regclass
WHERE c.relnamespace=(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = 'public') AND c.relkind not in ('i','I','c')

-- dbeaver: columns of every table in a schema (TableAttributeCache): a.*, default expression, comment, and identity-sequence dependency from pg_depend. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java; .../model/PostgreAttribute.java (columns read)
-- columns: relname, attname, attnum, attnotnull, atttypid, atttypmod, attndims, attinhcount, attislocal, attidentity, attgenerated, attcollation, def_value, description, objid
-- contains: customer_id, status, order total in euros
SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) as def_value,dsc.description,dep.objid
FROM pg_catalog.pg_attribute a
INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid)
LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = ad.adnum)
LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)
LEFT OUTER JOIN pg_depend dep on dep.refobjid = a.attrelid AND dep.deptype = 'i' and dep.refobjsubid = a.attnum and dep.classid = dep.refclassid
WHERE NOT a.attisdropped AND c.relkind not in ('i','I','c') AND c.relnamespace=(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = 'public')
ORDER BY a.attnum

-- dbeaver: constraints of a schema's tables (ConstraintCache); the check source comes from "substring"(pg_get_constraintdef(oid), 7) with the function name quoted. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java
-- columns: oid, conname, contype, conrelid, confrelid, conkey, confkey, tabrelname, refnamespace, description, consrc_copy
-- contains: orders, customers
SELECT c.oid,c.*,t.relname as tabrelname,rt.relnamespace as refnamespace,d.description, case when c.contype='c' then "substring"(pg_get_constraintdef(c.oid), 7) else null end consrc_copy
FROM pg_catalog.pg_constraint c
INNER JOIN pg_catalog.pg_class t ON t.oid=c.conrelid
LEFT OUTER JOIN pg_catalog.pg_class rt ON rt.oid=c.confrelid
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_constraint'::regclass
WHERE t.relnamespace=(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = 'public')
ORDER BY c.oid

-- dbeaver: indexes of a schema (IndexCache) with predicate and expression text, size and scan count. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java
-- columns: indexrelid, indrelid, indisunique, indisprimary, keys, relname, relnamespace, tabrelname, pred_expr, expr, index_rel_size, index_num_scans
-- contains: orders
SELECT i.*,i.indkey as keys,c.relname,c.relnamespace,c.relam,c.reltablespace,tc.relname as tabrelname,dsc.description,pg_catalog.pg_get_expr(i.indpred, i.indrelid) as pred_expr,pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) as expr,pg_catalog.pg_relation_size(i.indexrelid) as index_rel_size,pg_catalog.pg_stat_get_numscans(i.indexrelid) as index_num_scans
FROM pg_catalog.pg_index i
INNER JOIN pg_catalog.pg_class c ON c.oid=i.indexrelid
INNER JOIN pg_catalog.pg_class tc ON tc.oid=i.indrelid
LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid=dsc.objoid
WHERE  c.relnamespace=(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = 'public') ORDER BY c.relname

-- dbeaver: data type cache read on connect (cacheDataTypes): t.*, format_type(nullif(typbasetype, 0), typtypmod), skipping table row types. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDatabase.java, .../model/PostgreDataTypeCache.java
-- columns: oid, typname, typnamespace, typlen, typtype, typcategory, typelem, typarray, typbasetype, relkind, base_type_name, description
-- contains: int4, varchar, numeric, timestamptz, bool
SELECT t.oid,t.*,c.relkind,format_type(nullif(t.typbasetype, 0), t.typtypmod) as base_type_name, d.description
FROM pg_catalog.pg_type t
LEFT OUTER JOIN pg_catalog.pg_type et ON et.oid=t.typelem 
LEFT OUTER JOIN pg_catalog.pg_class c ON c.oid=t.typrelid
LEFT OUTER JOIN pg_catalog.pg_description d ON t.oid=d.objoid
WHERE t.typname IS NOT NULL
AND (c.relkind IS NULL OR c.relkind = 'c') AND (et.typcategory IS NULL OR et.typcategory <> 'C')

-- dbeaver: roles in the navigator (RoleCache) with shared comments. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDatabase.java
-- columns: oid, rolname, rolsuper, rolcanlogin, description
SELECT a.oid,a.*,pd.description FROM pg_catalog.pg_roles a 
left join pg_catalog.pg_shdescription pd on a.oid = pd.objoid
ORDER BY a.rolname

-- dbeaver: server settings lookup by name (SettingCache), name bound as a parameter. Source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDataSource.java; .../model/PostgreSetting.java (columns read)
-- columns: name, setting, unit, short_desc
-- params: search_path
-- contains: search_path
select * from pg_catalog.pg_settings where name=$1
