-- Queries Grafana's PostgreSQL data source sends: the health check, the
-- feature detection of the configuration page, the query builder's schema,
-- table and column pickers, and a panel query after macro expansion.
-- Format: see bi_test.go.

-- grafana: "Save & test" health check; the pgx backend pings, and pgconn's Ping sends this comment-only statement (an empty query). Source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/pgx/handler_checkhealth.go (e.Ping); jackc/pgx pgconn/pgconn.go (Ping)
-- ping

-- grafana: version auto-detection on the configuration page. Source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts (getVersion), configuration/useAutoDetectFeatures.ts
-- columns: version
SELECT current_setting('server_version_num')::int/100 as version

-- grafana: TimescaleDB detection; no row means no TimescaleDB. Source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts (getTimescaleDBVersion)
-- columns: extversion
SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'

-- grafana: schema list of the data source schema API. Source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/schema.go (querySchemas)
-- columns: schema_name
-- contains: public
SELECT schema_name
  FROM information_schema.schemata
 WHERE schema_name NOT LIKE 'pg_%' AND schema_name != 'information_schema'
 ORDER BY schema_name

-- grafana: query builder schema picker. Source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts (showSchemas)
-- columns: name
-- contains: public
SELECT schema_name AS "name"
  FROM information_schema.schemata
 WHERE schema_name NOT IN ('information_schema', 'pg_catalog', 'pg_toast', '_timescaledb_cache', '_timescaledb_catalog',
                           '_timescaledb_internal', '_timescaledb_config', 'timescaledb_information', 'timescaledb_experimental')
 ORDER BY schema_name

-- grafana: tables of one schema for the schema API, schema bound as a parameter. Source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/schema.go (queryTables)
-- columns: table_name
-- params: public
-- contains: customers, orders, order_totals
SELECT table_name FROM information_schema.tables
 WHERE table_schema = $1 AND table_type IN ('BASE TABLE', 'VIEW')
 ORDER BY table_name

-- grafana: query builder table picker without a schema: tables on the search_path unqualified, others schema-qualified; splits current_setting('search_path') with string_to_array, generate_series, array_lower/array_upper and maps "$user" to user. Source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts (showTables, buildSchemaConstraint)
-- columns: table
-- contains: customers, orders, order_totals
SELECT CASE WHEN quote_ident(table_schema) IN (
              SELECT CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
                FROM generate_series(array_lower(string_to_array(current_setting('search_path'), ','), 1),
                                     array_upper(string_to_array(current_setting('search_path'), ','), 1)) AS i,
                     string_to_array(current_setting('search_path'), ',') s)
            THEN quote_ident(table_name)
            ELSE quote_ident(table_schema) || '.' || quote_ident(table_name)
       END AS "table"
  FROM information_schema.tables
 WHERE quote_ident(table_schema) NOT IN ('information_schema', 'pg_catalog', '_timescaledb_cache', '_timescaledb_catalog',
                                         '_timescaledb_internal', '_timescaledb_config', 'timescaledb_information', 'timescaledb_experimental')
 ORDER BY CASE WHEN quote_ident(table_schema) IN (
              SELECT CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
                FROM generate_series(array_lower(string_to_array(current_setting('search_path'), ','), 1),
                                     array_upper(string_to_array(current_setting('search_path'), ','), 1)) AS i,
                     string_to_array(current_setting('search_path'), ',') s)
          THEN 0 ELSE 1 END, 1

-- grafana: query builder table picker for a chosen schema. Source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts (showTables with schema)
-- columns: table
-- contains: customers, orders
SELECT quote_ident(table_name) AS "table"
  FROM information_schema.tables
 WHERE quote_ident(table_schema) = 'public'
 ORDER BY 1

-- grafana: column picker for a table name that may be schema-qualified: parse_ident, array_length and array subscripts on its result. Source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts (getSchema)
-- columns: column, type
-- contains: customer_id, total, numeric
SELECT quote_ident(column_name) AS "column", data_type AS "type"
  FROM information_schema.columns
 WHERE CASE WHEN array_length(parse_ident('public.orders'), 1) = 2
            THEN quote_ident(table_schema) = (parse_ident('public.orders'))[1]
             AND quote_ident(table_name) = (parse_ident('public.orders'))[2]
            ELSE quote_ident(table_name) = 'public.orders'
       END

-- grafana: columns with types for the schema API, schema and table bound as parameters. Source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/schema.go (queryColumns)
-- columns: column_name, data_type, udt_name, numeric_precision, numeric_scale
-- params: public, orders
-- contains: customer_id, total, numeric, int4
SELECT column_name, data_type, udt_name, numeric_precision, numeric_scale
  FROM information_schema.columns
 WHERE table_schema = $1 AND table_name = $2
 ORDER BY ordinal_position

-- grafana: distinct values of columns for filter suggestions, one UNION ALL arm per column with a ::text cast. Source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/schema.go (ColumnValues)
-- columns: col_name, val
-- contains: status, shipped
SELECT 'status' AS col_name, "status"::text AS val
  FROM (SELECT DISTINCT "status" FROM "public"."orders" WHERE "status" IS NOT NULL ORDER BY "status" LIMIT 100) sub_0
UNION ALL
SELECT 'customer_id' AS col_name, "customer_id"::text AS val
  FROM (SELECT DISTINCT "customer_id" FROM "public"."orders" WHERE "customer_id" IS NOT NULL ORDER BY "customer_id" LIMIT 100) sub_1

-- grafana: a time series panel after macro expansion: $__timeGroupAlias(ordered_at, 5m) becomes floor(extract(epoch from ...)/300)*300 AS "time", $__timeFilter becomes BETWEEN two RFC 3339 literals. Source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/macros.go (__timeGroup, __timeFilter)
-- columns: time, total
SELECT floor(extract(epoch from ordered_at)/300)*300 AS "time", sum(total) AS total
  FROM orders
 WHERE ordered_at BETWEEN '2024-01-01T00:00:00Z' AND '2024-12-31T23:59:59.999Z'
 GROUP BY 1
 ORDER BY 1

-- grafana: a table panel using $__timeEpoch and $__unixEpochFilter, which expand to extract(epoch from ...) and integer bounds. Source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/macros.go (__timeEpoch, __unixEpochFilter)
-- columns: time, status
SELECT extract(epoch from ordered_at) as "time", status
  FROM orders
 WHERE extract(epoch from ordered_at) >= 1704067200 AND extract(epoch from ordered_at) <= 1735689599
 ORDER BY 1
