-- Queries pgcli sends to fill its completions when it connects, and those
-- its backslash commands (pgspecial) send for \dt, \d and \df. pgcli talks
-- through psycopg 3, which binds a Python list as an array literal of no
-- declared type (the exec mode of the replay).
-- Format: see bi_test.go.

-- pgcli: search path for completion. Source: dbcli/pgcli pgcli/pgexecute.py (search_path_query)
-- contains: public, pg_catalog
SELECT * FROM unnest(current_schemas(true))

-- pgcli: schema completion. Source: dbcli/pgcli pgcli/pgexecute.py (schemata_query)
-- columns: nspname
-- contains: public
SELECT  nspname
FROM    pg_catalog.pg_namespace
ORDER BY 1

-- pgcli: table completion, the relation kinds bound as a list. Source: dbcli/pgcli pgcli/pgexecute.py (tables_query)
-- columns: schema_name, table_name
-- params: {r,p,f}
-- contains: customers, orders
SELECT  n.nspname schema_name,
        c.relname table_name
FROM    pg_catalog.pg_class c
        LEFT JOIN pg_catalog.pg_namespace n
            ON n.oid = c.relnamespace
WHERE   c.relkind = ANY($1)
ORDER BY 1,2

-- pgcli: view completion. Source: dbcli/pgcli pgcli/pgexecute.py (tables_query, views)
-- columns: schema_name, table_name
-- params: {v,m}
-- contains: order_totals
SELECT  n.nspname schema_name,
        c.relname table_name
FROM    pg_catalog.pg_class c
        LEFT JOIN pg_catalog.pg_namespace n
            ON n.oid = c.relnamespace
WHERE   c.relkind = ANY($1)
ORDER BY 1,2

-- pgcli: column completion of tables, with their types and defaults. Source: dbcli/pgcli pgcli/pgexecute.py (_columns)
-- columns: schema_name, table_name, column_name, type_name, has_default, default
-- params: {r,p,f}
-- contains: customer_id, numeric, 'new'::text
SELECT  nsp.nspname schema_name,
        cls.relname table_name,
        att.attname column_name,
        att.atttypid::regtype::text type_name,
        att.atthasdef AS has_default,
        pg_catalog.pg_get_expr(def.adbin, def.adrelid, true) as default
FROM    pg_catalog.pg_attribute att
        INNER JOIN pg_catalog.pg_class cls
            ON att.attrelid = cls.oid
        INNER JOIN pg_catalog.pg_namespace nsp
            ON cls.relnamespace = nsp.oid
        LEFT OUTER JOIN pg_attrdef def
            ON def.adrelid = att.attrelid
            AND def.adnum = att.attnum
WHERE   cls.relkind = ANY($1)
        AND NOT att.attisdropped
        AND att.attnum  > 0
ORDER BY 1, 2, att.attnum

-- pgcli: function completion (server 11 and later); argument types come back as names through regtype[]. Source: dbcli/pgcli pgcli/pgexecute.py (functions)
-- columns: schema_name, func_name, return_type, is_aggregate
-- contains: lower, [text]
SELECT n.nspname schema_name,
        p.proname func_name,
        p.proargnames,
        COALESCE(proallargtypes::regtype[], proargtypes::regtype[])::text[],
        p.proargmodes,
        prorettype::regtype::text return_type,
        p.prokind = 'a' is_aggregate,
        p.prokind = 'w' is_window,
        p.proretset is_set_returning,
        d.deptype = 'e' is_extension,
        pg_get_expr(proargdefaults, 0) AS arg_defaults
FROM pg_catalog.pg_proc p
        INNER JOIN pg_catalog.pg_namespace n
            ON n.oid = p.pronamespace
LEFT JOIN pg_depend d ON d.objid = p.oid and d.deptype = 'e'
WHERE p.prorettype::regtype != 'trigger'::regtype
ORDER BY 1, 2

-- pgcli: data type completion. Source: dbcli/pgcli pgcli/pgexecute.py (datatypes)
-- columns: schema_name, type_name
SELECT n.nspname schema_name,
       t.typname type_name
FROM   pg_catalog.pg_type t
       INNER JOIN pg_catalog.pg_namespace n
          ON n.oid = t.typnamespace
WHERE ( t.typrelid = 0
        OR (
              SELECT c.relkind = 'c'
              FROM pg_catalog.pg_class c
              WHERE c.oid = t.typrelid
            )
      )
      AND NOT EXISTS(
            SELECT  1
            FROM    pg_catalog.pg_type el
            WHERE   el.oid = t.typelem AND el.typarray = t.oid
          )
      AND n.nspname <> 'pg_catalog'
      AND n.nspname <> 'information_schema'
ORDER BY 1, 2

-- pgcli: database completion. Source: dbcli/pgcli pgcli/pgexecute.py (databases_query)
-- columns: datname
SELECT d.datname
FROM pg_catalog.pg_database d
ORDER BY 1

-- pgcli: \dt through pgspecial, the relation kinds bound as a list with an empty kind. Source: dbcli/pgspecial pgspecial/dbcommands.py (list_objects)
-- columns: Schema, Name, Type, Owner
-- params: {r,p,""}
-- contains: customers, orders, table
SELECT n.nspname as "Schema",
            c.relname as "Name",
            CASE c.relkind
              WHEN 'r' THEN 'table' WHEN 'v' THEN 'view'
              WHEN 'p' THEN 'partitioned table'
              WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index'
              WHEN 'S' THEN 'sequence' WHEN 's' THEN 'special'
              WHEN 'f' THEN 'foreign table' END
            as "Type",
            pg_catalog.pg_get_userbyid(c.relowner) as "Owner"
    FROM    pg_catalog.pg_class c
            LEFT JOIN pg_catalog.pg_namespace n
              ON n.oid = c.relnamespace
    WHERE   c.relkind = ANY($1)
    AND n.nspname <> 'pg_catalog'
    AND n.nspname <> 'information_schema'
    AND n.nspname !~ '^pg_toast'
    AND pg_catalog.pg_table_is_visible(c.oid)
 ORDER BY 1, 2

-- pgcli: \df lower through pgspecial. Source: dbcli/pgspecial pgspecial/dbcommands.py (list_functions)
-- columns: Schema, Name, Result data type, Argument data types, Type
-- params: ^(lower)$
-- contains: lower, normal
SELECT  n.nspname as "Schema",
        p.proname as "Name",
        pg_catalog.pg_get_function_result(p.oid)
          as "Result data type",
        pg_catalog.pg_get_function_arguments(p.oid)
          as "Argument data types",
         CASE
            WHEN p.prokind = 'a' THEN 'agg'
            WHEN p.prokind = 'w' THEN 'window'
            WHEN p.prorettype = 'pg_catalog.trigger'::pg_catalog.regtype
                THEN 'trigger'
            ELSE 'normal'
        END as "Type"
FROM    pg_catalog.pg_proc p
        LEFT JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE   pg_catalog.pg_function_is_visible(p.oid)  AND p.proname ~ $1  ORDER BY 1, 2, 4
