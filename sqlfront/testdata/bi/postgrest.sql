-- Statements PostgREST sends for one request (GET /orders): the
-- transaction around it, the SELECT of set_config() calls that gives the
-- request's context to the database, the read query, and what a function
-- of the database does to read the context. The blocks run in order on
-- one session, so they are one request. PostgREST binds every value as a
-- parameter of unknown type. Mallard has no roles: set_config('role', ...)
-- is accepted and changes no privilege (the value here is a role that
-- exists on the PostgreSQL the corpus is checked against).
-- Format: see bi_test.go.

-- postgrest: the request's transaction, begun by hasql-transaction with an isolation level and access mode. Source: nikita-volkov/hasql-transaction library/Hasql/Transaction/Private/SQL.hs (beginTransaction)
BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY

-- postgrest: the request's context, every value local to the transaction: search path, role, JWT claims, method, path, headers and cookies. Source: PostgREST/postgrest src/PostgREST/Query/PreQuery.hs (txVarQuery), src/PostgREST/Query/SqlFragment.hs (setConfigLocal)
-- params: "public", postgres, {"role":"postgres"}, GET, /orders, {"accept":"*/*"}, {}
-- contains: "public", GET, /orders, {"accept":"*/*"}
select set_config('search_path', $1, true), set_config('role', $2, true), set_config('request.jwt.claims', $3, true), set_config('request.method', $4, true), set_config('request.path', $5, true), set_config('request.headers', $6, true), set_config('request.cookies', $7, true)

-- postgrest: the read query of GET /orders, which reads the response headers and status a function may have set. Source: PostgREST/postgrest src/PostgREST/Query/Statements.hs (prepareRead), src/PostgREST/Query/SqlFragment.hs (responseHeadersF, currentSettingF)
-- columns: total_result_set, page_total, body, response_headers, response_status
-- contains: 3
WITH pgrst_source AS ( SELECT "public"."orders".* FROM "public"."orders"  )  SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, coalesce(json_agg(_postgrest_t), '[]') AS body, nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status FROM ( SELECT * FROM pgrst_source ) _postgrest_t

-- postgrest: what a database function reads of the request, as PostgREST's documentation shows. Source: PostgREST/postgrest docs/references/transactions.rst (Request Headers, Cookies and JWT claims)
-- columns: method, path, role
-- contains: GET, /orders, postgres
select current_setting('request.method', true) AS method, current_setting('request.path', true) AS path, current_setting('request.jwt.claims', true)::json->>'role' AS role

-- postgrest: the end of the request. Source: nikita-volkov/hasql-transaction library/Hasql/Transaction/Private/Statements.hs (commitTransaction)
COMMIT
