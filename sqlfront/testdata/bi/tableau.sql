-- Queries Tableau sends to PostgreSQL. Tableau is closed source; these come
-- from what is public: its connector SDK's PostgreSQL JDBC sample (which
-- turns on CAP_QUERY_WHERE_FALSE_METADATA and uses the pgjdbc driver, so
-- metadata arrives through DatabaseMetaData, whose SQL is in pgjdbc), the
-- SDK's metadata-enumeration page, its dialect file for generated SQL, and
-- a report of the ODBC-era column query in treasure-data/prestogres#29.
-- Format: see bi_test.go.

-- tableau: database (catalog) list through pgjdbc DatabaseMetaData.getCatalogs(). Source: tableau/connector-plugin-sdk docs/metadata-enumeration (JDBC enumeration); pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getCatalogs)
-- columns: TABLE_CAT
SELECT datname AS "TABLE_CAT" FROM pg_catalog.pg_database WHERE datallowconn = true ORDER BY datname

-- tableau: schema list through pgjdbc getSchemas(catalog, pattern), the pattern bound as a parameter. Source: pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getSchemas)
-- columns: TABLE_SCHEM, TABLE_CATALOG
-- params: %
-- contains: public
SELECT nspname AS "TABLE_SCHEM", current_database() AS "TABLE_CATALOG"
  FROM pg_catalog.pg_namespace
 WHERE nspname <> 'pg_toast'
   AND (nspname !~ '^pg_temp_' OR nspname = (pg_catalog.current_schemas(true))[1])
   AND (nspname !~ '^pg_toast_temp_' OR nspname = replace((pg_catalog.current_schemas(true))[1], 'pg_temp_', 'pg_toast_temp_'))
   AND nspname LIKE $1
 ORDER BY "TABLE_SCHEM"

-- tableau: table and view list through pgjdbc getTables(null, "public", "%", {"TABLE","VIEW"}): nested CASE on nspname ~ '^pg_' and relkind, comments via 'pg_class'::regclass. Source: pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getTables, tableTypeClauses)
-- columns: TABLE_CAT, TABLE_SCHEM, TABLE_NAME, TABLE_TYPE, REMARKS
-- params: public, %
-- contains: customers, orders, order_totals, TABLE, VIEW
SELECT current_database() AS "TABLE_CAT", n.nspname AS "TABLE_SCHEM", c.relname AS "TABLE_NAME",
       CASE n.nspname ~ '^pg_' OR n.nspname = 'information_schema'
         WHEN true THEN CASE
           WHEN n.nspname = 'pg_catalog' OR n.nspname = 'information_schema' THEN CASE c.relkind
             WHEN 'r' THEN 'SYSTEM TABLE' WHEN 'v' THEN 'SYSTEM VIEW' WHEN 'i' THEN 'SYSTEM INDEX' ELSE NULL END
           WHEN n.nspname = 'pg_toast' THEN CASE c.relkind
             WHEN 'r' THEN 'SYSTEM TOAST TABLE' WHEN 'i' THEN 'SYSTEM TOAST INDEX' ELSE NULL END
           ELSE CASE c.relkind
             WHEN 'r' THEN 'TEMPORARY TABLE' WHEN 'p' THEN 'TEMPORARY TABLE' WHEN 'i' THEN 'TEMPORARY INDEX'
             WHEN 'S' THEN 'TEMPORARY SEQUENCE' WHEN 'v' THEN 'TEMPORARY VIEW' ELSE NULL END
         END
         WHEN false THEN CASE c.relkind
           WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'i' THEN 'INDEX' WHEN 'P' then 'PARTITIONED INDEX'
           WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'c' THEN 'TYPE' WHEN 'f' THEN 'FOREIGN TABLE'
           WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END
         ELSE NULL
       END AS "TABLE_TYPE",
       d.description AS "REMARKS",
       '' as "TYPE_CAT", '' as "TYPE_SCHEM", '' as "TYPE_NAME", '' AS "SELF_REFERENCING_COL_NAME", '' AS "REF_GENERATION"
  FROM pg_catalog.pg_namespace n, pg_catalog.pg_class c
  LEFT JOIN pg_catalog.pg_description d ON (c.oid = d.objoid AND d.objsubid = 0 and d.classoid = 'pg_class'::regclass)
 WHERE c.relnamespace = n.oid
   AND n.nspname LIKE $1
   AND c.relname LIKE $2
   AND (false
        OR (c.relkind = 'r' AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema')
        OR (c.relkind = 'v' AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema'))
 ORDER BY "TABLE_TYPE","TABLE_SCHEM","TABLE_NAME"

-- tableau: column metadata through pgjdbc getColumns(null, "public", "orders", "%"): row_number() OVER (PARTITION BY attrelid ORDER BY attnum) inside a derived table, nullif on attidentity/attgenerated, pg_get_expr defaults, domain typtype/typnotnull. Source: pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getColumns)
-- columns: current_database, nspname, relname, attname, atttypid, attnotnull, atttypmod, attlen, typtypmod, attnum, attidentity, attgenerated, adsrc, description, typbasetype, typtype
-- params: public, orders, %
-- contains: id, customer_id, total, status, ordered_at, order total in euros
SELECT * FROM (
  SELECT current_database() AS current_database, n.nspname, c.relname, a.attname, a.atttypid,
         a.attnotnull OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull, a.atttypmod, a.attlen, t.typtypmod,
         row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum,
         nullif(a.attidentity, '') as attidentity,
         nullif(a.attgenerated, '') as attgenerated,
         pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc, dsc.description, t.typbasetype, t.typtype
    FROM pg_catalog.pg_namespace n
    JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)
    JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)
    JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)
    LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)
    LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)
    LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')
    LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')
   WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped
     AND n.nspname LIKE $1 AND c.relname LIKE $2
) c WHERE true AND attname LIKE $3
ORDER BY nspname,c.relname,attnum

-- tableau: type name of a result column oid, which pgjdbc looks up for getColumns and ResultSetMetaData (TypeInfoCache.getPGType): = ANY(current_schemas(true)). Source: pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/TypeInfoCache.java
-- contains: numeric
SELECT n.nspname = ANY(current_schemas(true)), n.nspname, t.typname
  FROM pg_catalog.pg_type t
  JOIN pg_catalog.pg_namespace n ON t.typnamespace = n.oid
 WHERE t.oid = 1700

-- tableau: primary key through pgjdbc getPrimaryKeys (CAP_JDBC_METADATA_READ_PRIMARYKEYS): composite-typed information_schema._pg_expandarray(conkey) with field selection .n and .x. Source: pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getPrimaryKeys); help.tableau.com jdbc_capabilities
-- columns: TABLE_CAT, TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, KEY_SEQ, PK_NAME
-- params: public, orders
-- contains: orders, id
SELECT result.TABLE_CAT AS "TABLE_CAT", result.TABLE_SCHEM AS "TABLE_SCHEM", result.TABLE_NAME AS "TABLE_NAME",
       result.COLUMN_NAME AS "COLUMN_NAME", result.KEY_SEQ AS "KEY_SEQ", result.PK_NAME AS "PK_NAME"
  FROM (SELECT current_database() AS TABLE_CAT, n.nspname AS TABLE_SCHEM, ct.relname AS TABLE_NAME, a.attname AS COLUMN_NAME,
               (information_schema._pg_expandarray(con.conkey)).n AS KEY_SEQ, con.conname AS PK_NAME,
               information_schema._pg_expandarray(con.conkey) AS KEYS, a.attnum AS A_ATTNUM
          FROM pg_catalog.pg_constraint con
          JOIN pg_catalog.pg_class ct ON (con.conrelid = ct.oid)
          JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)
          JOIN pg_catalog.pg_attribute a ON (a.attrelid = ct.oid)
         WHERE con.contype = 'p' AND n.nspname = $1 AND ct.relname = $2) result
 where result.A_ATTNUM = (result.KEYS).x
 ORDER BY result.table_name, result.pk_name, result.key_seq

-- tableau: foreign keys through pgjdbc getImportedKeys (CAP_JDBC_METADATA_READ_FOREIGNKEYS): comma joins with pg_catalog.generate_series(1, 32) pos(n) and array subscripts conkey[pos.n]. Source: pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getImportedExportedKeys); help.tableau.com jdbc_capabilities
-- columns: PKTABLE_SCHEM, PKTABLE_NAME, PKCOLUMN_NAME, FKTABLE_SCHEM, FKTABLE_NAME, FKCOLUMN_NAME, KEY_SEQ, UPDATE_RULE, DELETE_RULE, FK_NAME, PK_NAME, DEFERRABILITY
-- params: public, orders
-- contains: customers, orders, customer_id
SELECT current_database() AS "PKTABLE_CAT", pkn.nspname AS "PKTABLE_SCHEM", pkc.relname AS "PKTABLE_NAME", pka.attname AS "PKCOLUMN_NAME",
       current_database() AS "FKTABLE_CAT", fkn.nspname AS "FKTABLE_SCHEM", fkc.relname AS "FKTABLE_NAME", fka.attname AS "FKCOLUMN_NAME",
       pos.n AS "KEY_SEQ",
       CASE con.confupdtype WHEN 'c' THEN 0 WHEN 'n' THEN 2 WHEN 'd' THEN 4 WHEN 'r' THEN 1 WHEN 'p' THEN 1 WHEN 'a' THEN 3 ELSE NULL END AS "UPDATE_RULE",
       CASE con.confdeltype WHEN 'c' THEN 0 WHEN 'n' THEN 2 WHEN 'd' THEN 4 WHEN 'r' THEN 1 WHEN 'p' THEN 1 WHEN 'a' THEN 3 ELSE NULL END AS "DELETE_RULE",
       con.conname AS "FK_NAME", pkic.relname AS "PK_NAME",
       CASE WHEN con.condeferrable AND con.condeferred THEN 5 WHEN con.condeferrable THEN 6 ELSE 7 END AS "DEFERRABILITY"
  FROM pg_catalog.pg_namespace pkn, pg_catalog.pg_class pkc, pg_catalog.pg_attribute pka,
       pg_catalog.pg_namespace fkn, pg_catalog.pg_class fkc, pg_catalog.pg_attribute fka,
       pg_catalog.pg_constraint con, pg_catalog.generate_series(1, 32) pos(n), pg_catalog.pg_class pkic
 WHERE pkn.oid = pkc.relnamespace AND pkc.oid = pka.attrelid AND pka.attnum = con.confkey[pos.n] AND con.confrelid = pkc.oid
   AND fkn.oid = fkc.relnamespace AND fkc.oid = fka.attrelid AND fka.attnum = con.conkey[pos.n] AND con.conrelid = fkc.oid
   AND con.contype = 'f' AND (pkic.relkind = 'i' OR pkic.relkind = 'I') AND pkic.oid = con.conindid
   AND fkn.nspname = $1 AND fkc.relname = $2
 ORDER BY pkn.nspname,pkc.relname, con.conname,pos.n

-- tableau: index metadata through pgjdbc getIndexInfo (CAP_JDBC_METADATA_GET_INDEX_INFO): int2vector subscripts, & on smallint, trim(both '"' from pg_get_indexdef(...)). Source: pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getIndexInfo); help.tableau.com jdbc_capabilities
-- columns: TABLE_SCHEM, TABLE_NAME, NON_UNIQUE, INDEX_NAME, TYPE, ORDINAL_POSITION, COLUMN_NAME, ASC_OR_DESC, CARDINALITY, PAGES, FILTER_CONDITION
-- params: public, orders
-- contains: orders, ordered_at, id
SELECT tmp.TABLE_CAT AS "TABLE_CAT", tmp.TABLE_SCHEM AS "TABLE_SCHEM", tmp.TABLE_NAME AS "TABLE_NAME", tmp.NON_UNIQUE AS "NON_UNIQUE",
       tmp.INDEX_QUALIFIER AS "INDEX_QUALIFIER", tmp.INDEX_NAME AS "INDEX_NAME", tmp.TYPE AS "TYPE", tmp.ORDINAL_POSITION AS "ORDINAL_POSITION",
       trim(both '"' from pg_catalog.pg_get_indexdef(tmp.CI_OID, tmp.ORDINAL_POSITION, false)) AS "COLUMN_NAME",
       CASE tmp.AM_NAME WHEN 'btree' THEN CASE tmp.I_INDOPTION[tmp.ORDINAL_POSITION - 1] & 1::smallint WHEN 1 THEN 'D' ELSE 'A' END ELSE NULL END AS "ASC_OR_DESC",
       tmp.CARDINALITY AS "CARDINALITY", tmp.PAGES AS "PAGES", tmp.FILTER_CONDITION AS "FILTER_CONDITION", tmp.REMARKS AS "REMARKS"
  FROM (SELECT current_database() AS TABLE_CAT, n.nspname AS TABLE_SCHEM, ct.relname AS TABLE_NAME, NOT i.indisunique AS NON_UNIQUE,
               NULL AS INDEX_QUALIFIER, ci.relname AS INDEX_NAME,
               CASE i.indisclustered WHEN true THEN 1 ELSE CASE am.amname WHEN 'hash' THEN 2 ELSE 3 END END AS TYPE,
               (information_schema._pg_expandarray(i.indkey)).n AS ORDINAL_POSITION,
               ci.reltuples AS CARDINALITY, ci.relpages AS PAGES,
               pg_catalog.pg_get_expr(i.indpred, i.indrelid) AS FILTER_CONDITION,
               ci.oid AS CI_OID, i.indoption AS I_INDOPTION, am.amname AS AM_NAME, d.description AS REMARKS
          FROM pg_catalog.pg_class ct
          JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)
          JOIN pg_catalog.pg_index i ON (ct.oid = i.indrelid)
          JOIN pg_catalog.pg_class ci ON (ci.oid = i.indexrelid)
          JOIN pg_catalog.pg_am am ON (ci.relam = am.oid)
          LEFT JOIN pg_catalog.pg_description d ON (ci.oid = d.objoid)
         WHERE true AND n.nspname = $1 AND ct.relname = $2) AS tmp
 ORDER BY "NON_UNIQUE", "TYPE", "INDEX_NAME", "ORDINAL_POSITION"

-- tableau: result-shape metadata for a table with a false predicate (CAP_QUERY_WHERE_FALSE_METADATA in the PostgreSQL JDBC sample). Source: tableau/connector-plugin-sdk samples/plugins/postgres_jdbc/manifest.xml; docs/metadata-enumeration
-- columns: id, customer_id, total, status, ordered_at
SELECT * FROM "public"."orders" "orders" WHERE (1 = 0)

-- tableau: result-shape metadata for a Custom SQL connection, the custom query wrapped as a derived table. Source: tableau/connector-plugin-sdk docs/metadata-enumeration
-- columns: name, total
SELECT * FROM (SELECT c.name, o.total FROM customers c JOIN orders o ON o.customer_id = c.id) "Custom SQL Query" WHERE (1 = 0)

-- tableau: ODBC-era column enumeration reported from Tableau 9 through the PostgreSQL ODBC driver. Source: treasure-data/prestogres issue #29
-- columns: table_schema, table_name, column_name, is_nullable, data_type
-- contains: orders, customers, customer_id
select table_schema, table_name, column_name, is_nullable, data_type from information_schema.columns

-- tableau: a worksheet query in the sample dialect's forms: CAST(EXTRACT(... FROM ...) AS INTEGER), DATE_TRUNC, STRPOS on CAST(... AS TEXT), COALESCE, GROUP BY ordinals, LIMIT for Top N. Source: tableau/connector-plugin-sdk samples/plugins/postgres_jdbc/dialect.tdd
-- columns: yr:ordered_at:ok, tmn:ordered_at:ok, sum:total:ok
SELECT CAST(EXTRACT(YEAR FROM "orders"."ordered_at") AS INTEGER) AS "yr:ordered_at:ok",
       DATE_TRUNC('MONTH', CAST("orders"."ordered_at" AS TIMESTAMP)) AS "tmn:ordered_at:ok",
       SUM(COALESCE("orders"."total", 0)) AS "sum:total:ok"
  FROM "public"."orders" "orders"
 WHERE (STRPOS(CAST("orders"."status" AS TEXT), CAST('ship' AS TEXT)) > 0)
 GROUP BY 1, 2
 ORDER BY 3 DESC
 LIMIT 10
