//go:build duckdb_arrow

package sqlfront_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/mallard/mallard/sqlfront"
)

// The comparison corpus under testdata/pgcompare runs the same statements on
// PostgreSQL 15 and on Mallard and compares what a client sees. A file is
// made of these parts, each statement ending with a line that ends in ';':
//
//	# a comment line
//	setup                    the statements after it run on both first
//	query rows columns types one statement, then the aspects that must match
//
// The aspects are:
//
//	rows     result values as text; sorted first unless the query has an
//	         ORDER BY
//	columns  result column names
//	types    result column type OIDs
//	error    both fail with the same SQLSTATE
//	ok       both succeed
//
// Every file starts from an empty database on both servers, and its
// statements run in order on one session, so SET carries to later queries.

// cmpStatement is a setup statement or a query of a corpus file.
type cmpStatement struct {
	line   int
	sql    string
	checks []string
}

// cmpFile is one parsed corpus file.
type cmpFile struct {
	setup   []cmpStatement
	queries []cmpStatement
}

var cmpChecks = []string{"rows", "columns", "types", "error", "ok"}

func loadCompareFile(path string) (cmpFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return cmpFile{}, err
	}
	defer f.Close()
	var (
		out     cmpFile
		inSetup bool
		cur     *cmpStatement
		buf     []string
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t")
		if len(buf) == 0 {
			fields := strings.Fields(line)
			switch {
			case line == "" || strings.HasPrefix(line, "#"):
				continue
			case fields[0] == "setup":
				inSetup = true
				continue
			case fields[0] == "query":
				for _, c := range fields[1:] {
					if !slices.Contains(cmpChecks, c) {
						return out, fmt.Errorf("%s:%d: unknown check %q", path, n, c)
					}
				}
				inSetup = false
				cur = &cmpStatement{checks: fields[1:]}
				continue
			}
			if !inSetup && cur == nil {
				return out, fmt.Errorf("%s:%d: statement without a query line", path, n)
			}
		}
		if len(buf) == 0 {
			if cur == nil {
				cur = &cmpStatement{}
			}
			cur.line = n
		}
		buf = append(buf, line)
		if strings.HasSuffix(line, ";") {
			cur.sql = strings.Join(buf, "\n")
			if inSetup {
				out.setup = append(out.setup, *cur)
			} else {
				out.queries = append(out.queries, *cur)
			}
			cur, buf = nil, nil
		}
	}
	if len(buf) > 0 {
		return out, fmt.Errorf("%s: statement at line %d does not end with ';'", path, cur.line)
	}
	return out, sc.Err()
}

// cmpResult is what a client sees of one statement in the simple protocol:
// text values, so the servers' own formatting is compared.
type cmpResult struct {
	columns []string
	oids    []uint32
	rows    []string
	code    string
	err     error
}

func runCompare(ctx context.Context, conn *pgx.Conn, sql string) cmpResult {
	results, err := conn.PgConn().Exec(ctx, sql).ReadAll()
	var r cmpResult
	if err != nil {
		r.err = err
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) {
			r.code = pgErr.Code
		}
		return r
	}
	if len(results) == 0 {
		return r
	}
	last := results[len(results)-1]
	for _, fd := range last.FieldDescriptions {
		r.columns = append(r.columns, fd.Name)
		r.oids = append(r.oids, fd.DataTypeOID)
	}
	for _, row := range last.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			if v == nil {
				cells[i] = "NULL"
			} else {
				cells[i] = strconv.Quote(string(v))
			}
		}
		r.rows = append(r.rows, strings.Join(cells, " | "))
	}
	return r
}

var cmpOrderBy = regexp.MustCompile(`(?i)\border\s+by\b`)

// TestPGCompare runs every corpus file on PostgreSQL and on Mallard and
// reports, per query, each aspect in which Mallard differs. A query that
// fails on PostgreSQL itself (or, for error checks, succeeds there) is a
// corpus bug and is reported as such.
func TestPGCompare(t *testing.T) {
	requirePostgres(t)
	known := loadKnownFailures(t, "pgcompare")
	files, err := filepath.Glob(filepath.Join("testdata", "pgcompare", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no comparison corpus: %v", err)
	}
	for _, path := range files {
		file, err := loadCompareFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			pg := openCompareConn(t, freshPostgresDatabase(t))
			cfg, err := pgx.ParseConfig(connString(startServer(t, sqlfront.Config{})))
			if err != nil {
				t.Fatal(err)
			}
			mallard := openCompareConn(t, cfg)
			for _, s := range file.setup {
				t.Run(fmt.Sprintf("setup_%d", s.line), func(t *testing.T) {
					known.check(t, func(v verdict) {
						compareOne(v, pg, mallard, cmpStatement{line: s.line, sql: s.sql, checks: []string{"ok"}})
					})
				})
			}
			for _, q := range file.queries {
				t.Run(strconv.Itoa(q.line), func(t *testing.T) {
					known.check(t, func(v verdict) { compareOne(v, pg, mallard, q) })
				})
			}
		})
	}
}

func compareOne(t verdict, pg, mallard *pgx.Conn, q cmpStatement) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	want := runCompare(ctx, pg, q.sql)
	got := runCompare(ctx, mallard, q.sql)
	if mallard.IsClosed() {
		t.Fatalf("%s\nMallard closed the connection: %v", q.sql, got.err)
	}
	if slices.Contains(q.checks, "error") {
		switch {
		case want.err == nil:
			t.Fatalf("corpus: %s\nsucceeds on PostgreSQL; an error check needs it to fail", q.sql)
		case got.err == nil:
			t.Errorf("%s\nPostgreSQL fails with %s (%v); Mallard succeeds", q.sql, want.code, want.err)
		case got.code != want.code:
			t.Errorf("%s\nSQLSTATE: PostgreSQL %s (%v); Mallard %s (%v)", q.sql, want.code, want.err, got.code, got.err)
		}
		return
	}
	if want.err != nil {
		t.Fatalf("corpus: %s\nfails on PostgreSQL: %v", q.sql, want.err)
	}
	if got.err != nil {
		t.Fatalf("%s\nMallard fails: %v", q.sql, got.err)
	}
	if slices.Contains(q.checks, "columns") && !slices.Equal(got.columns, want.columns) {
		t.Errorf("%s\ncolumns: PostgreSQL %q; Mallard %q", q.sql, want.columns, got.columns)
	}
	if slices.Contains(q.checks, "types") && !slices.Equal(got.oids, want.oids) {
		t.Errorf("%s\ntypes: PostgreSQL %s; Mallard %s", q.sql, typeNames(want.oids), typeNames(got.oids))
	}
	if slices.Contains(q.checks, "rows") {
		if !cmpOrderBy.MatchString(q.sql) {
			slices.Sort(want.rows)
			slices.Sort(got.rows)
		}
		if !slices.Equal(got.rows, want.rows) {
			t.Errorf("%s\nrows: PostgreSQL\n\t%s\nMallard\n\t%s", q.sql,
				strings.Join(want.rows, "\n\t"), strings.Join(got.rows, "\n\t"))
		}
	}
}

// typeNames renders type OIDs as "name(oid)" for readable failures.
func typeNames(oids []uint32) string {
	m := pgtype.NewMap()
	names := make([]string, len(oids))
	for i, oid := range oids {
		name := "?"
		if typ, ok := m.TypeForOID(oid); ok {
			name = typ.Name
		}
		names[i] = fmt.Sprintf("%s(%d)", name, oid)
	}
	return "[" + strings.Join(names, " ") + "]"
}

// openCompareConn opens a simple-protocol session that ends with the test.
func openCompareConn(t *testing.T, cfg *pgx.ConnConfig) *pgx.Conn {
	t.Helper()
	return connectMode(t, cfg, pgx.QueryExecModeSimpleProtocol)
}

// freshPostgresDatabase creates an empty database on the PostgreSQL named by
// MALLARD_TEST_POSTGRES, drops it when the test ends, and returns a
// configuration that connects to it. The name is unique per call, so runs
// sharing a server do not collide.
func freshPostgresDatabase(t *testing.T) *pgx.ConnConfig {
	t.Helper()
	admin := requirePostgres(t)
	name := fmt.Sprintf("mallard_cmp_%d_%d", os.Getpid(), time.Now().UnixNano())
	adminExec(t, admin, "CREATE DATABASE "+name+" TEMPLATE template0 ENCODING 'UTF8'")
	t.Cleanup(func() { adminExec(t, admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	cfg := admin.Copy()
	cfg.Database = name
	return cfg
}

// requirePostgres returns the configuration in MALLARD_TEST_POSTGRES. Without
// the variable the test is skipped, except under CI, where
// scripts/with-postgres.sh provides it and its absence is a failure.
func requirePostgres(t *testing.T) *pgx.ConnConfig {
	t.Helper()
	dsn := os.Getenv("MALLARD_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MALLARD_TEST_POSTGRES is not set; run the tests under scripts/with-postgres.sh")
		}
		t.Skip("MALLARD_TEST_POSTGRES is not set; run under scripts/with-postgres.sh to compare with PostgreSQL")
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatalf("MALLARD_TEST_POSTGRES: %v", err)
	}
	return cfg
}

func adminExec(t *testing.T, cfg *pgx.ConnConfig, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
