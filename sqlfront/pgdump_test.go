//go:build duckdb_arrow

package sqlfront_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/sqlfront"
)

// The pg_dump corpus: each schema under testdata/pgdump is loaded into
// PostgreSQL 15, dumped with the real pg_dump 15 (COPY and --inserts
// forms), restored into Mallard with psql -v ON_ERROR_STOP=1 -f, and the
// two compared: every table's and view's columns, types and rows, every
// sequence's next value, and, for schema.checks.sql, that each statement
// in it fails on both with the same SQLSTATE (the constraints hold).
// pgbench's schema is made by pgbench -i itself.
func TestPgDumpRestore(t *testing.T) {
	cases := []struct {
		name, schema string
		dumpArgs     []string
	}{
		{"shop_copy", "shop.sql", nil},
		{"shop_inserts", "shop.sql", []string{"--inserts"}},
		{"types_copy", "types.sql", nil},
		{"types_inserts", "types.sql", []string{"--column-inserts"}},
		{"copyonly_copy", "copyonly.sql", nil},
		{"selfref_copy", "selfref.sql", nil},
		{"selfref_inserts", "selfref.sql", []string{"--inserts"}},
		{"copyonly_inserts", "copyonly.sql", []string{"--inserts"}},
		{"copyonly_column_inserts", "copyonly.sql", []string{"--column-inserts"}},
		{"bytea_copy", "bytea.sql", nil},
		{"bytea_inserts", "bytea.sql", []string{"--inserts"}},
		{"bytea_column_inserts", "bytea.sql", []string{"--column-inserts"}},
		{"pgbench_copy", "", nil},
		{"pgbench_inserts", "", []string{"--inserts", "--rows-per-insert=1000"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := freshPostgresDatabase(t)
			if tc.schema == "" {
				runTool(t, "pgbench", "-i", "-s", "1", "-q", libpq(src))
			} else {
				runTool(t, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", filepath.Join("testdata", "pgdump", tc.schema), libpq(src))
			}
			dump := filepath.Join(t.TempDir(), "dump.sql")
			runTool(t, "pg_dump", append(tc.dumpArgs, "-f", dump, libpq(src))...)
			dst := mallardConfig(t, startServer(t, sqlfront.Config{}))
			runTool(t, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", dump, libpq(dst))
			compareRestored(t, src, dst)
			if checks := filepath.Join("testdata", "pgdump", strings.TrimSuffix(tc.schema, ".sql")+".checks.sql"); tc.schema != "" && fileExists(checks) {
				compareChecks(t, checks, src, dst)
			}
		})
	}
}

// TestPgDumpBadInput restores a dump with statements no rewrite can
// honour: each fails with 0A000 naming the feature (psql adds the line),
// and with ON_ERROR_STOP off the rest loads.
func TestPgDumpBadInput(t *testing.T) {
	requirePostgres(t)
	dump := filepath.Join(t.TempDir(), "bad.sql")
	text := `SET check_function_bodies = false;
CREATE TABLE public.kept (id integer NOT NULL, during text);
CREATE FUNCTION public.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER kept_touch BEFORE UPDATE ON public.kept FOR EACH ROW EXECUTE FUNCTION public.touch();
ALTER TABLE ONLY public.kept ADD CONSTRAINT no_overlap EXCLUDE USING gist (during WITH &&);
COPY public.kept (id) FROM stdin;
1
2
\.
`
	if err := os.WriteFile(dump, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := mallardConfig(t, startServer(t, sqlfront.Config{}))
	out, err := toolOutput("psql", "-X", "-q", "-f", dump, libpq(dst))
	if err != nil {
		t.Fatalf("psql without ON_ERROR_STOP: %v\n%s", err, out)
	}
	for _, want := range []string{
		"bad.sql:3: ERROR:  CREATE FUNCTION in Postgres syntax",
		"bad.sql:4: ERROR:  triggers is not supported",
		"bad.sql:5: ERROR:  exclusion constraints is not supported",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("psql output lacks %q:\n%s", want, out)
		}
	}
	var n int
	conn := openCompareConn(t, dst)
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM public.kept").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows loaded after the refused statements: %d, %v; want 2", n, err)
	}
	if _, err := toolOutput("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", dump, libpq(dst)); err == nil {
		t.Error("psql with ON_ERROR_STOP=1 succeeded on a dump with a PL/pgSQL function")
	}
}

// TestPgbench runs pgbench -i and its built-in select-only and tpcb-like
// scripts against Mallard; every transaction must succeed.
func TestPgbench(t *testing.T) {
	requirePostgres(t)
	dst := libpq(mallardConfig(t, startServer(t, sqlfront.Config{})))
	runTool(t, "pgbench", "-i", "-s", "1", "-q", dst)
	for _, script := range []string{"select-only", "tpcb-like"} {
		out := runTool(t, "pgbench", "-n", "-b", script, "-t", "50", "-c", "1", dst)
		if !strings.Contains(out, "number of failed transactions: 0 ") || !strings.Contains(out, "number of transactions actually processed: 50/50") {
			t.Errorf("pgbench -b %s:\n%s", script, out)
		}
	}
}

// compareRestored compares every table and view of src (PostgreSQL) with
// the same relation in dst (Mallard), and the next value of every sequence.
func compareRestored(t *testing.T, src, dst *pgx.ConnConfig) {
	t.Helper()
	ctx := context.Background()
	pgConn, mConn := openCompareConn(t, src), openCompareConn(t, dst)
	rels := queryStrings(t, pgConn, `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables
		WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`)
	if len(rels) == 0 {
		t.Fatal("the source database has no tables")
	}
	for _, rel := range rels {
		want, err := readRelation(ctx, pgConn, "SELECT * FROM "+rel)
		if err != nil {
			t.Fatalf("PostgreSQL: %s: %v", rel, err)
		}
		got, err := readRelation(ctx, mConn, "SELECT * FROM "+rel)
		if err != nil {
			t.Errorf("Mallard: %s: %v", rel, err)
			continue
		}
		if !slices.Equal(want.columns, got.columns) || !slices.Equal(textTypes(want.types), got.types) {
			t.Errorf("%s: columns %v types %s, want %v %s", rel, got.columns, typeNames(got.types), want.columns, typeNames(want.types))
		}
		if len(want.rows) != len(got.rows) {
			t.Errorf("%s: %d rows, want %d", rel, len(got.rows), len(want.rows))
			continue
		}
		for i := range want.rows {
			if want.rows[i] != got.rows[i] {
				t.Errorf("%s: row\n\t%s\nwant\n\t%s", rel, got.rows[i], want.rows[i])
				break
			}
		}
	}
	for _, seq := range queryStrings(t, pgConn, "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) FROM pg_sequences ORDER BY 1") {
		q := "SELECT nextval('" + seq + "')"
		if want, got := queryStrings(t, pgConn, q), queryStrings(t, mConn, q); !slices.Equal(want, got) {
			t.Errorf("%s: Mallard %v, PostgreSQL %v", q, got, want)
		}
	}
}

// compareChecks runs each line of path on both servers: each must fail,
// with the same SQLSTATE.
func compareChecks(t *testing.T, path string, src, dst *pgx.ConnConfig) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	pgConn, mConn := openCompareConn(t, src), openCompareConn(t, dst)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		q := strings.TrimSpace(sc.Text())
		if q == "" {
			continue
		}
		_, pgErr := pgConn.Exec(ctx, q)
		_, mErr := mConn.Exec(ctx, q)
		if pgErr == nil || sqlstateOf(mErr) != sqlstateOf(pgErr) {
			t.Errorf("%s: Mallard %v, PostgreSQL %v", q, mErr, pgErr)
		}
	}
}

func sqlstateOf(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// relationData is a result as text: column names, type OIDs and sorted rows.
type relationData struct {
	columns []string
	types   []uint32
	rows    []string
}

func readRelation(ctx context.Context, conn *pgx.Conn, q string) (relationData, error) {
	rows, err := conn.Query(ctx, q)
	if err != nil {
		return relationData{}, err
	}
	defer rows.Close()
	var out relationData
	for _, fd := range rows.FieldDescriptions() {
		out.columns, out.types = append(out.columns, fd.Name), append(out.types, fd.DataTypeOID)
	}
	for rows.Next() {
		var cells []string
		for _, v := range rows.RawValues() {
			if v == nil {
				cells = append(cells, "NULL")
			} else {
				cells = append(cells, string(v))
			}
		}
		out.rows = append(out.rows, strings.Join(cells, " | "))
	}
	slices.Sort(out.rows)
	return out, rows.Err()
}

func queryStrings(t *testing.T, conn *pgx.Conn, q string) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		out = append(out, string(rows.RawValues()[0]))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// mallardConfig is the connection configuration of a test server.
func mallardConfig(t *testing.T, addr string) *pgx.ConnConfig {
	t.Helper()
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// libpq renders cfg as the connection string psql, pg_dump and pgbench take.
func libpq(cfg *pgx.ConnConfig) string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", cfg.Host, cfg.Port, cfg.User, cfg.Database)
}

// runTool runs a PostgreSQL 15 client program and returns its output,
// failing the test if it fails.
func runTool(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := toolOutput(name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// toolOutput runs PostgreSQL 15's name with args, taken from Debian's
// PostgreSQL 15 directory where it is installed, and returns stdout and
// stderr together. The last argument is the connection string.
func toolOutput(name string, args ...string) (string, error) {
	path := filepath.Join("/usr/lib/postgresql/15/bin", name)
	if _, err := os.Stat(path); err != nil {
		path = name
	}
	if name != "pgbench" { // pgbench's -d is --debug
		last := args[len(args)-1]
		args = append([]string{"-d", last}, args[:len(args)-1]...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	return string(out), err
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// textTypes maps varchar and bpchar to text and jsonb to json: a DuckDB
// VARCHAR keeps no length, so a restored varchar(n) or char(n) column reads
// as text, and DuckDB's one JSON type stands for both (see the README's
// limits).
func textTypes(oids []uint32) []uint32 {
	out := slices.Clone(oids)
	for i, oid := range out {
		switch oid {
		case 1043, 1042:
			out[i] = 25
		case 3802:
			out[i] = 114
		}
	}
	return out
}

// TestDDLAsToolsWriteIt runs each line of testdata/pgdump/ddl.sql, DDL as
// pg_dump, ORMs and migration tools write it, on PostgreSQL and on
// Mallard in turn: each must succeed on both or fail on both with the
// same SQLSTATE, and a statement that returns rows must return the same.
func TestDDLAsToolsWriteIt(t *testing.T) {
	src := freshPostgresDatabase(t)
	dst := mallardConfig(t, startServer(t, sqlfront.Config{}))
	ctx := context.Background()
	pgConn, mConn := openCompareConn(t, src), openCompareConn(t, dst)
	f, err := os.Open(filepath.Join("testdata", "pgdump", "ddl.sql"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		q := sc.Text()
		want, pgErr := readRelation(ctx, pgConn, q)
		got, mErr := readRelation(ctx, mConn, q)
		switch {
		case sqlstateOf(mErr) != sqlstateOf(pgErr) || (mErr == nil) != (pgErr == nil):
			t.Errorf("%s\n\tMallard: %v\n\tPostgreSQL: %v", q, mErr, pgErr)
		case !slices.Equal(want.rows, got.rows):
			t.Errorf("%s\n\tMallard: %q\n\tPostgreSQL: %q", q, got.rows, want.rows)
		}
	}
}

// TestPgDumpNewerVersion sends a dump of pg_dump 17 as one simple query, as
// a driver streams a file: a NOTICE says it is restored on a best-effort
// basis, and it loads (transaction_timeout, new in 17, included).
func TestPgDumpNewerVersion(t *testing.T) {
	cfg := mallardConfig(t, startServer(t, sqlfront.Config{}))
	var notices []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
	conn := openCompareConn(t, cfg)
	dump := `--
-- PostgreSQL database dump
--

-- Dumped from database version 17.2
-- Dumped by pg_dump version 17.2

SET statement_timeout = 0;
SET transaction_timeout = 0;
SET default_table_access_method = heap;
CREATE TABLE public.t (id integer NOT NULL);
INSERT INTO public.t VALUES (1);
`
	ctx := context.Background()
	if _, err := conn.Exec(ctx, dump); err != nil {
		t.Fatal(err)
	}
	want := "this dump was made by pg_dump 17.2, newer than the PostgreSQL 15 that Mallard speaks as: it is restored on a best-effort basis"
	if !slices.Contains(notices, want) {
		t.Errorf("notices %q lack %q", notices, want)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM public.t").Scan(&n); err != nil || n != 1 {
		t.Errorf("rows: %d, %v; want 1", n, err)
	}
	notices = nil
	if _, err := conn.Exec(ctx, "-- Dumped by pg_dump version 15.18\nSELECT 1"); err != nil || len(notices) != 0 {
		t.Errorf("a pg_dump 15 header: notices %q, error %v; want none", notices, err)
	}
}

// TestSelfReferenceKeyLimit: a foreign key that references its own table
// is added to a filled table a level at a time and then enforced, but rows
// that reference themselves, which Postgres accepts, make the statement
// fail with 0A000 naming the key and leave the table as it was.
func TestSelfReferenceKeyLimit(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeSimpleProtocol)
	for _, q := range []string{
		"CREATE TABLE emp (id integer PRIMARY KEY, boss integer)",
		"INSERT INTO emp VALUES (3, 2), (2, 1), (1, NULL), (4, 4)",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const add = "ALTER TABLE emp ADD CONSTRAINT emp_boss FOREIGN KEY (boss) REFERENCES emp(id)"
	_, err := conn.Exec(ctx, add)
	if code, msg := pgCode(err); code != "0A000" || !strings.Contains(msg, "reference themselves") {
		t.Fatalf("adding the key with a row that references itself: %v; want 0A000 saying so", err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM emp").Scan(&n); err != nil || n != 4 {
		t.Fatalf("rows after the refused key: %d, %v; want 4", n, err)
	}
	if _, err := conn.Exec(ctx, "DELETE FROM emp WHERE id = 4"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, add); err != nil {
		t.Fatalf("adding the key to a hierarchy: %v", err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO emp VALUES (5, 99)"); sqlstateOf(err) != "23503" {
		t.Errorf("a row whose boss does not exist: %v; want 23503", err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM emp WHERE boss IS NOT NULL").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows with a boss after the rebuild: %d, %v; want 2", n, err)
	}
}
