-- Queries Metabase's PostgreSQL driver sends while adding and syncing a
-- database, rewritten by hand from what the driver and pgjdbc build. Format:
-- see bi_test.go. Header lines are "-- tag: text"; the tool line says what
-- the query is for and where it was learned; "columns" are the result
-- columns the tool reads by name; "contains" are values that must appear in
-- some cell once the test schema exists.

-- metabase: connection test; can-connect? runs SELECT 1 and compares the first value of the first row with 1. Source: metabase/metabase src/metabase/driver/sql_jdbc/connection.clj (can-connect-with-spec?)
SELECT 1

-- metabase: database default timezone, read as column 1 of the first row. Source: metabase/metabase src/metabase/driver/postgres.clj (driver/db-default-timezone)
show timezone;

-- metabase: report timezone applied to each connection before a query. Source: metabase/metabase src/metabase/driver/postgres.clj (set-timezone-sql "SET SESSION TIMEZONE TO %s;")
SET SESSION TIMEZONE TO 'UTC';

-- metabase: schema list for sync, through pgjdbc DatabaseMetaData.getSchemas(). Source: metabase/metabase src/metabase/driver/sql_jdbc/sync/describe_database.clj (all-schemas); pgjdbc/pgjdbc pgjdbc/src/main/java/org/postgresql/jdbc/PgDatabaseMetaData.java (getSchemas)
-- columns: TABLE_SCHEM
-- contains: public
SELECT ns.nspname AS "TABLE_SCHEM", current_database() AS "TABLE_CATALOG"
  FROM pg_catalog.pg_namespace ns
 WHERE ns.nspname <> 'pg_toast'
   AND (ns.nspname !~ '^pg_temp_' OR ns.nspname = (pg_catalog.current_schemas(true))[1])
   AND (ns.nspname !~ '^pg_toast_temp_' OR ns.nspname = replace((pg_catalog.current_schemas(true))[1], 'pg_temp_', 'pg_toast_temp_'))
 ORDER BY "TABLE_SCHEM"

-- metabase: which tables the user may read and write (current-user-table-privileges); keywords used as column labels. Source: metabase/metabase src/metabase/driver/postgres.clj (sql-jdbc.sync/current-user-table-privileges)
-- columns: schema, table, select, update, insert, delete
-- contains: customers, orders, order_totals
WITH table_privileges AS (
  SELECT NULL AS role,
         obj.schemaname AS schema,
         obj.objectname AS table,
         pg_catalog.has_any_column_privilege(current_user, '"' || replace(obj.schemaname, '"', '""') || '"' || '.' || '"' || replace(obj.objectname, '"', '""') || '"', 'update') AS update,
         pg_catalog.has_any_column_privilege(current_user, '"' || replace(obj.schemaname, '"', '""') || '"' || '.' || '"' || replace(obj.objectname, '"', '""') || '"', 'select') AS select,
         pg_catalog.has_any_column_privilege(current_user, '"' || replace(obj.schemaname, '"', '""') || '"' || '.' || '"' || replace(obj.objectname, '"', '""') || '"', 'insert') AS insert,
         pg_catalog.has_table_privilege(current_user, '"' || replace(obj.schemaname, '"', '""') || '"' || '.' || '"' || replace(obj.objectname, '"', '""') || '"', 'delete') AS delete
    FROM (SELECT schemaname, tablename AS objectname FROM pg_catalog.pg_tables
          UNION
          SELECT schemaname, viewname AS objectname FROM pg_catalog.pg_views
          UNION
          SELECT schemaname, matviewname AS objectname FROM pg_catalog.pg_matviews) obj
   WHERE obj.schemaname !~ '^pg_'
     AND obj.schemaname <> 'information_schema'
     AND pg_catalog.has_schema_privilege(current_user, obj.schemaname, 'usage'))
SELECT tp.* FROM table_privileges tp

-- metabase: table list with comments and row estimates (describe-database get-tables-sql); 'pg_class'::regclass, !~, ORDER BY output aliases. Source: metabase/metabase src/metabase/driver/postgres.clj (get-tables-sql)
-- columns: schema, name, type, description, estimated_row_count
-- contains: customers, orders, order_totals, customer orders
SELECT n.nspname AS "schema",
       c.relname AS "name",
       CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'v' THEN 'VIEW'
                      WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END AS "type",
       d.description AS "description",
       stat.n_live_tup AS "estimated_row_count"
  FROM pg_catalog.pg_class AS c
 INNER JOIN pg_catalog.pg_namespace AS n ON c.relnamespace = n.oid
  LEFT JOIN pg_catalog.pg_description AS d
         ON (c.oid = d.objoid) AND (d.objsubid = 0) AND (d.classoid = 'pg_class'::regclass)
  LEFT JOIN pg_stat_user_tables AS stat ON (n.nspname = stat.schemaname) AND (c.relname = stat.relname)
 WHERE (c.relnamespace = n.oid)
   AND (n.nspname !~ '^pg_') AND (n.nspname <> 'information_schema')
   AND c.relkind IN ('r', 'p', 'v', 'f', 'm')
   AND (n.nspname IN ('public'))
 ORDER BY "type" ASC, "schema" ASC, "name" ASC

-- metabase: column sync (describe-fields-sql): information_schema.columns joined to primary keys, col_description over format('%I.%I')::regclass::oid, unioned with materialized-view columns from pg_attribute. Source: metabase/metabase src/metabase/driver/postgres.clj (sql-jdbc.sync/describe-fields-sql)
-- columns: name, database-type, database-position, table-schema, table-name, pk?, field-comment, database-required, database-is-auto-increment
-- contains: customer_id, total, int4, numeric, order total in euros
SELECT "c"."column_name" AS "name",
       CASE WHEN "c"."udt_schema" IN ('public', 'pg_catalog') THEN format('%s', "c"."udt_name")
            ELSE format('"%s"."%s"', "c"."udt_schema", "c"."udt_name") END AS "database-type",
       "c"."ordinal_position" - 1 AS "database-position",
       "c"."table_schema" AS "table-schema",
       "c"."table_name" AS "table-name",
       "pk"."column_name" IS NOT NULL AS "pk?",
       col_description(CAST(CAST(format('%I.%I', CAST("c"."table_schema" AS TEXT), CAST("c"."table_name" AS TEXT)) AS REGCLASS) AS OID), "c"."ordinal_position") AS "field-comment",
       (("column_default" IS NULL) OR (LOWER("column_default") = 'null')) AND ("is_nullable" = 'NO')
         AND NOT ((("column_default" IS NOT NULL) AND ("column_default" LIKE '%nextval(%')) OR ("is_identity" <> 'NO')) AS "database-required",
       (("column_default" IS NOT NULL) AND ("column_default" LIKE '%nextval(%')) OR ("is_identity" <> 'NO') AS "database-is-auto-increment"
  FROM "information_schema"."columns" AS "c"
  LEFT JOIN (SELECT "tc"."table_schema", "tc"."table_name", "kc"."column_name"
               FROM "information_schema"."table_constraints" AS "tc"
              INNER JOIN "information_schema"."key_column_usage" AS "kc"
                      ON ("tc"."constraint_name" = "kc"."constraint_name")
                     AND ("tc"."table_schema" = "kc"."table_schema")
                     AND ("tc"."table_name" = "kc"."table_name")
              WHERE "tc"."constraint_type" = 'PRIMARY KEY') AS "pk"
         ON ("c"."table_schema" = "pk"."table_schema") AND ("c"."table_name" = "pk"."table_name") AND ("c"."column_name" = "pk"."column_name")
 WHERE c.table_schema !~ '^information_schema|catalog_history|pg_'
   AND ("c"."table_schema" IN ('public')) AND ("c"."table_name" IN ('customers', 'orders'))
UNION ALL
SELECT "pa"."attname" AS "name",
       CASE WHEN "ptn"."nspname" IN ('public', 'pg_catalog') THEN format('%s', "pt"."typname")
            ELSE format('"%s"."%s"', "ptn"."nspname", "pt"."typname") END AS "database-type",
       "pa"."attnum" - 1 AS "database-position",
       "pn"."nspname" AS "table-schema",
       "pc"."relname" AS "table-name",
       FALSE AS "pk?",
       NULL AS "field-comment",
       FALSE AS "database-required",
       FALSE AS "database-is-auto-increment"
  FROM "pg_catalog"."pg_class" AS "pc"
 INNER JOIN "pg_catalog"."pg_namespace" AS "pn" ON "pn"."oid" = "pc"."relnamespace"
 INNER JOIN "pg_catalog"."pg_attribute" AS "pa" ON "pa"."attrelid" = "pc"."oid"
 INNER JOIN "pg_catalog"."pg_type" AS "pt" ON "pt"."oid" = "pa"."atttypid"
 INNER JOIN "pg_catalog"."pg_namespace" AS "ptn" ON "ptn"."oid" = "pt"."typnamespace"
 WHERE ("pc"."relkind" = 'm') AND ("pa"."attnum" >= 1)
   AND ("pn"."nspname" IN ('public')) AND ("pc"."relname" IN ('customers', 'orders'))
 ORDER BY "table-schema" ASC, "table-name" ASC, "database-position" ASC

-- metabase: foreign keys (describe-fks-sql): pg_constraint with = ANY(conkey) and 'f'::char. Source: metabase/metabase src/metabase/driver/postgres.clj (sql-jdbc.sync/describe-fks-sql)
-- columns: fk-table-schema, fk-table-name, fk-column-name, pk-table-schema, pk-table-name, pk-column-name
-- contains: orders, customer_id, customers, id
SELECT "fk_ns"."nspname" AS "fk-table-schema",
       "fk_table"."relname" AS "fk-table-name",
       "fk_column"."attname" AS "fk-column-name",
       "pk_ns"."nspname" AS "pk-table-schema",
       "pk_table"."relname" AS "pk-table-name",
       "pk_column"."attname" AS "pk-column-name"
  FROM "pg_constraint" AS "c"
 INNER JOIN "pg_class" AS "fk_table" ON "c"."conrelid" = "fk_table"."oid"
 INNER JOIN "pg_namespace" AS "fk_ns" ON "c"."connamespace" = "fk_ns"."oid"
 INNER JOIN "pg_attribute" AS "fk_column" ON "c"."conrelid" = "fk_column"."attrelid"
 INNER JOIN "pg_class" AS "pk_table" ON "c"."confrelid" = "pk_table"."oid"
 INNER JOIN "pg_namespace" AS "pk_ns" ON "pk_table"."relnamespace" = "pk_ns"."oid"
 INNER JOIN "pg_attribute" AS "pk_column" ON "c"."confrelid" = "pk_column"."attrelid"
 WHERE fk_ns.nspname !~ '^information_schema|catalog_history|pg_'
   AND ("c"."contype" = 'f'::char)
   AND ("fk_column"."attnum" = ANY(c.conkey))
   AND ("pk_column"."attnum" = ANY(c.confkey))
   AND ("fk_ns"."nspname" IN ('public'))
 ORDER BY "fk-table-schema" ASC, "fk-table-name" ASC

-- metabase: first column of every unfiltered index (describe-indexes-sql): information_schema._pg_expandarray, pg_get_indexdef, TRIM(BOTH '"' FROM ...). Source: metabase/metabase src/metabase/driver/postgres.clj (sql-jdbc.sync/describe-indexes-sql)
-- columns: table-schema, table-name, field-name
-- contains: orders, ordered_at
SELECT "tmp"."table-schema", "tmp"."table-name",
       TRIM(BOTH '"' FROM pg_catalog.pg_get_indexdef("tmp"."ci_oid", "tmp"."pos", FALSE)) AS "field-name"
  FROM (SELECT "n"."nspname" AS "table-schema",
               "ct"."relname" AS "table-name",
               "ci"."oid" AS "ci_oid",
               (information_schema._pg_expandarray("i"."indkey")).n AS "pos"
          FROM "pg_catalog"."pg_class" AS "ct"
         INNER JOIN "pg_catalog"."pg_namespace" AS "n" ON "ct"."relnamespace" = "n"."oid"
         INNER JOIN "pg_catalog"."pg_index" AS "i" ON "ct"."oid" = "i"."indrelid"
         INNER JOIN "pg_catalog"."pg_class" AS "ci" ON "ci"."oid" = "i"."indexrelid"
         WHERE (pg_catalog.pg_get_expr("i"."indpred", "i"."indrelid") IS NULL)
           AND n.nspname !~ '^information_schema|catalog_history|pg_'
           AND ("n"."nspname" IN ('public'))
           AND ("ct"."relname" IN ('customers', 'orders'))) AS "tmp"
 WHERE "tmp"."pos" = 1

-- metabase: enum types, so enum columns get :type/PostgresEnum (enum-types). Source: metabase/metabase src/metabase/driver/postgres.clj (enum-types)
-- columns: nspname, typname
SELECT nspname, typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.oid IN (SELECT DISTINCT enumtypid FROM pg_enum e)

-- metabase: SELECT probe on a table (have-select-privilege? fallback and foreign tables); the statement only has to run. Source: metabase/metabase src/metabase/driver/sql_jdbc/sync/describe_database.clj (simple-select-probe-query)
-- columns: _
SELECT TRUE AS "_" FROM "public"."orders" WHERE 1 <> 1 LIMIT 0

-- metabase: a month breakout as the query processor emits it: CAST to timestamp inside date_trunc, GROUP BY/ORDER BY the expression. Source: metabase/metabase src/metabase/driver/postgres.clj (date-trunc, ->timestamp)
-- columns: ordered_at, count
SELECT date_trunc('month', CAST("public"."orders"."ordered_at" AS timestamp)) AS "ordered_at", COUNT(*) AS "count"
  FROM "public"."orders"
 GROUP BY date_trunc('month', CAST("public"."orders"."ordered_at" AS timestamp))
 ORDER BY date_trunc('month', CAST("public"."orders"."ordered_at" AS timestamp)) ASC
