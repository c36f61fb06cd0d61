//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgREST serves each HTTP request in one transaction (hasql-transaction
// begins it with an isolation level and access mode). It first sets the
// request's context with one SELECT of set_config(name, $n, true) calls,
// whose values it binds as parameters of unknown type (txVarQuery in
// src/PostgREST/Query/PreQuery.hs), then runs the request's query, which
// reads response.headers and response.status with current_setting(name,
// true) (Statements.hs); the database's own functions read request.*
// the same way. COMMIT ends every value it set.

const (
	postgrestBegin   = "BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY"
	postgrestContext = "select set_config('search_path', $1, true), set_config('role', $2, true), " +
		"set_config('request.jwt.claims', $3, true), set_config('request.method', $4, true), " +
		"set_config('request.path', $5, true), set_config('request.headers', $6, true), " +
		"set_config('request.cookies', $7, true)"
	postgrestRead = `WITH pgrst_source AS ( SELECT "api"."todos".* FROM "api"."todos" ORDER BY "api"."todos"."id" ) ` +
		`SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ` +
		`coalesce(json_agg(_postgrest_t), '[]') AS body, ` +
		`nullif(current_setting('response.headers', true), '') AS response_headers, ` +
		`nullif(current_setting('response.status', true), '') AS response_status ` +
		`FROM ( SELECT * FROM pgrst_source ) _postgrest_t`
	postgrestRequest = "select current_setting('request.method', true), current_setting('request.path', true), " +
		"current_setting('request.jwt.claims', true)::json->>'role', current_setting('request.headers', true)::json->>'accept', " +
		"current_setting('search_path'), current_setting('role')"
)

// postgrestSchema is the schema PostgREST serves in TestPostgRESTRequest.
var postgrestSchema = []string{
	"CREATE SCHEMA api",
	"CREATE TABLE api.todos (id integer PRIMARY KEY, task text NOT NULL, done boolean NOT NULL DEFAULT false)",
	"INSERT INTO api.todos VALUES (1, 'write tests', true), (2, 'ship', false)",
}

// TestPostgRESTRequest replays the statements of one PostgREST GET
// request, in every pgx exec mode. Mallard has no roles: set_config('role',
// ...) is accepted and changes no privilege. On PostgreSQL the role must
// exist, so the test creates it there.
func TestPostgRESTRequest(t *testing.T) {
	for _, target := range compareTargets(t) {
		role := "web_anon"
		if target.name == "postgres" {
			role = postgresRole(t, target.cfg)
		}
		setup := connectMode(t, target.cfg, pgx.QueryExecModeSimpleProtocol)
		for _, stmt := range postgrestSchema {
			mustExec(t, setup, stmt)
		}
		if target.name == "postgres" {
			mustExec(t, setup, fmt.Sprintf("GRANT USAGE ON SCHEMA api TO %s; GRANT SELECT ON api.todos TO %[1]s", role))
		}
		for _, m := range execModes {
			t.Run(target.name+"/"+m.name, func(t *testing.T) {
				replayPostgREST(t, connectMode(t, target.cfg, m.mode), role)
			})
		}
	}
}

// replayPostgREST runs one request on conn as role and checks what each
// statement returns, and that COMMIT ends the request's settings.
func replayPostgREST(t *testing.T, conn *pgx.Conn, role string) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	mustExec(t, conn, postgrestBegin)
	claims := `{"role":"` + role + `"}`
	headers := `{"accept":"*/*","user-agent":"curl/8.5.0"}`
	args := []any{`"api", "public"`, role, claims, "GET", "/todos", headers, "{}"}
	got := make([]string, len(args))
	ptrs := make([]any, len(args))
	for i := range got {
		ptrs[i] = &got[i]
	}
	if err := conn.QueryRow(ctx, postgrestContext, args...).Scan(ptrs...); err != nil {
		t.Fatalf("set_config: %v", err)
	}
	if want := []string{`"api", "public"`, role, claims, "GET", "/todos", headers, "{}"}; !reflect.DeepEqual(got, want) {
		t.Errorf("set_config returned %q, want %q", got, want)
	}
	checkPostgRESTRead(t, conn)
	var method, path, claimRole, accept, searchPath, setRole string
	err := conn.QueryRow(ctx, postgrestRequest).Scan(&method, &path, &claimRole, &accept, &searchPath, &setRole)
	if err != nil {
		t.Fatalf("request settings: %v", err)
	}
	if method != "GET" || path != "/todos" || claimRole != role || accept != "*/*" || searchPath != `"api", "public"` || setRole != role {
		t.Errorf("in the transaction: method %q path %q claims role %q accept %q search_path %q role %q",
			method, path, claimRole, accept, searchPath, setRole)
	}
	mustExec(t, conn, "COMMIT")
	if err := conn.QueryRow(ctx, "select current_setting('request.method', true), current_setting('role')").Scan(&method, &setRole); err != nil {
		t.Fatal(err)
	}
	if method != "" || setRole != "none" {
		t.Errorf("after COMMIT: request.method %q, role %q; want both reset", method, setRole)
	}
}

// checkPostgRESTRead runs the request's query: the rows as one JSON body,
// and no response headers or status, as no function set them.
func checkPostgRESTRead(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	var total *int64
	var pageTotal int64
	var body string
	var headers, status *string
	err := conn.QueryRow(context.Background(), postgrestRead).Scan(&total, &pageTotal, &body, &headers, &status)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(body), &rows); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	want := []map[string]any{{"id": 1.0, "task": "write tests", "done": true}, {"id": 2.0, "task": "ship", "done": false}}
	if total != nil || pageTotal != 2 || !reflect.DeepEqual(rows, want) || headers != nil || status != nil {
		t.Errorf("read: total %v, page_total %d, body %s, response headers %v, status %v", total, pageTotal, body, headers, status)
	}
}

// postgresRole creates a role on the PostgreSQL server for PostgREST to
// switch to, dropped with its privileges in the database of cfg when the
// test ends.
func postgresRole(t *testing.T, cfg *pgx.ConnConfig) string {
	t.Helper()
	admin := requirePostgres(t)
	role := fmt.Sprintf("web_anon_%d_%d", os.Getpid(), time.Now().UnixNano())
	adminExec(t, admin, "CREATE ROLE "+role+" NOLOGIN")
	t.Cleanup(func() {
		adminExec(t, cfg, "DROP OWNED BY "+role)
		adminExec(t, admin, "DROP ROLE "+role)
	})
	return role
}
