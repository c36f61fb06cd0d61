//go:build duckdb_arrow

package functions_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
)

// startRolesServer runs a server with the owner mallard / own3r and the
// read-only role reader / re4d, and returns a connection for each.
func startRolesServer(t *testing.T) (owner, reader *pgx.Conn) {
	t.Helper()
	ownerCreds, err := sqlfront.NewCredentials("mallard", "own3r")
	if err != nil {
		t.Fatal(err)
	}
	readerCreds, err := sqlfront.NewCredentials("reader", "re4d")
	if err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, server.Config{Front: sqlfront.Config{Credentials: ownerCreds, Reader: readerCreds}})
	login := func(user, password string) *pgx.Conn {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, strings.Replace(testserver.ConnString(addr), "user=mallard", "user="+user, 1)+" password="+password)
		if err != nil {
			t.Fatalf("login as %s: %v", user, err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		return conn
	}
	return login("mallard", "own3r"), login("reader", "re4d")
}

// TestReadOnlyRole: the read-only role queries, forecasts, recommends,
// evaluates and sets session parameters and customized options (as any
// Postgres role may), and every way to write, train, save, deploy or change a
// DuckDB setting fails with 42501 and changes nothing, including calls
// that pass a forged caller or use the names DuckDB knows the functions by.
func TestReadOnlyRole(t *testing.T) {
	ctx := context.Background()
	owner, reader := startRolesServer(t)
	scaledUnemployment(t, owner)
	exec(t, owner,
		"CREATE TABLE small AS SELECT u AS user_id, i AS item_id, ((u * 7 + i * 3) % 5 + 1)::DOUBLE AS rating "+
			"FROM range(1, 41) r(u), range(1, 31) s(i) WHERE (u + i) % 3 <> 0",
		"CREATE SEQUENCE seq",
		"SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 2, hidden := [4, 4])",
		"SELECT count(*) FROM train_recommender('small', model := 'r', epochs := 2, hidden := [8])")

	for _, q := range []string{
		"SELECT count(*) FROM uw",
		"SELECT count(*) FROM forecast('g', steps := 2)",
		"SELECT count(*) FROM evaluate('g')",
		"SELECT count(*) FROM recommend('r', user_id := 3, k := 5)",
		"SELECT count(*) FROM evaluate('r')",
		"SELECT count(*) FROM rescale('uw', columns := ['finance'], time := ['year', 'month'])",
		"SELECT name, status FROM mlops.models",
		"SET application_name = 'dashboard'",
		"SET TimeZone = 'Europe/Paris'",
		"SELECT set_config('search_path', 'public', false)",
		"SET myapp.user_id = '42'",
		"SELECT set_config('request.jwt.claims', '{}', false)",
		"SELECT current_setting('myapp.user_id'), current_setting('request.jwt.claims')",
		"BEGIN", "SELECT 1", "COMMIT",
		"EXPLAIN SELECT * FROM uw",
		"PRAGMA table_info('uw')",
		"SHOW TABLES",
		"DISCARD ALL",
	} {
		if _, err := reader.Exec(ctx, q); err != nil {
			t.Errorf("reader: %s: %v", q, err)
		}
	}
	var copied strings.Builder
	if _, err := reader.PgConn().CopyTo(ctx, &copied, "COPY (SELECT user_id FROM small LIMIT 2) TO STDOUT"); err != nil || strings.Count(copied.String(), "\n") != 2 {
		t.Errorf("reader: COPY TO STDOUT: %q, %v", copied.String(), err)
	}

	refused := []string{
		"INSERT INTO small VALUES (1, 1, 1)",
		"UPDATE small SET rating = 0",
		"DELETE FROM small",
		"CREATE TABLE t (a INTEGER)",
		"CREATE TEMP TABLE t (a INTEGER)",
		"CREATE TABLE t (id serial)",
		"DROP TABLE small",
		"ALTER TABLE small ADD COLUMN c INTEGER",
		"TRUNCATE small",
		"COPY small TO 'small.csv'",
		"SET threads = 1",
		"SET memory_limit = '1GB'",
		"RESET threads",
		"PRAGMA enable_profiling",
		"SET VARIABLE mallard_connection = '1:forged'",
		"ATTACH ':memory:' AS other",
		"DETACH memory",
		"INSTALL httpfs",
		"LOAD httpfs",
		"CHECKPOINT",
		"CALL checkpoint()",
		"EXPLAIN ANALYZE DELETE FROM small",
		"PREPARE p AS DELETE FROM small",
		"SELECT nextval('seq')",
		"SELECT * FROM query('SELECT nextval(''seq'')')",
		"SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 1)",
		"SELECT count(*) FROM train_recommender('small', model := 'r2', epochs := 1)",
		"SELECT count(*) FROM rescale('uw', columns := ['finance'], time := ['year', 'month'], save_as := 's')",
		"SELECT mlops.deploy('g', 1)",
		"SELECT mlops.rollback('g')",
		"SELECT mlops.drop('r')",
		"SELECT mlops.cancel(1)",
		"SELECT * FROM load_mnist('m', path := '/nonexistent')",
		// A caller passed by hand, and the operations by their DuckDB names.
		forgedCall(t, "SELECT count(*) FROM train_recommender('small', model := 'r3', epochs := 1)", `{"id":"1:forged"}`),
		forgedCall(t, "SELECT count(*) FROM train_recommender('small', model := 'r3', epochs := 1)", `{}`),
		"SELECT mlops_drop('{\"id\":\"1:forged\"}', '\"r\"')",
		"SELECT mlops_drop('{}', '\"g\"')",
		// A training hidden in the source of a function the reader may call.
		"SELECT count(*) FROM rescale('SELECT * FROM train_recommender(''small'', model := ''r4'', epochs := 1)', columns := ['epoch'])",
	}
	for _, q := range refused {
		if e := errorCode(t, reader, q); e.Code != "42501" {
			t.Errorf("reader: %s: %s %s, want 42501", q, e.Code, e.Message)
		}
		if _, err := reader.Exec(ctx, "SELECT 1"); err != nil {
			t.Fatalf("reader after %s: %v", q, err)
		}
	}

	// Nothing the reader tried changed anything.
	if n := scanOne[int64](t, owner, "SELECT count(*) FROM small"); n != 40*30-400 {
		t.Errorf("small has %d rows after the reader's attempts", n)
	}
	if got := scanOne[string](t, owner, "SELECT string_agg(name || '@' || version || ':' || status || ':' || deployed, ' ' ORDER BY name, version) FROM mlops.models"); got != "g@1:ready:true r@1:ready:true" {
		t.Errorf("registry after the reader's attempts: %s", got)
	}
	if n := scanOne[int64](t, owner, "SELECT count(*) FROM mlops.scalers WHERE name = 's'"); n != 0 {
		t.Errorf("the reader saved a scaler")
	}
	if v := scanOne[int64](t, owner, "SELECT nextval('seq')"); v != 1 {
		t.Errorf("the sequence was advanced by the reader: nextval is %d", v)
	}
	if n := scanOne[int64](t, owner, "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'small'"); n != 3 {
		t.Errorf("small has %d columns", n)
	}
	if s := scanOne[string](t, owner, "SELECT current_setting('threads')::VARCHAR"); s == "1" {
		t.Errorf("the reader changed threads")
	}
	// The owner still writes and trains.
	exec(t, owner, "INSERT INTO small VALUES (1, 1, 1)", "SELECT mlops.deploy('g', 1)")
}

// forgedCall is query, a call of one of Mallard's table functions, as the
// planner rewrites it but with caller in place of the calling session: a
// client can send it as it is, since the planner leaves a call that
// already has a caller alone.
func forgedCall(t *testing.T, query, caller string) string {
	t.Helper()
	cat, _ := server.Catalog()
	text := planner.New(cat).PlanOne(query).Text
	i := strings.LastIndex(text, planner.CallerArgument+" := ")
	if i < 0 || !strings.HasSuffix(text, ")") {
		t.Fatalf("the planner did not add the caller to %s: %s", query, text)
	}
	return text[:i] + planner.CallerArgument + " := '" + caller + "')"
}
