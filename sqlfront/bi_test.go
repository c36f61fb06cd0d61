//go:build duckdb_arrow

package sqlfront_test

import (
	"bufio"
	"context"
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
	"github.com/mallard/mallard/sqlfront"
)

// The BI corpus under testdata/bi holds, per tool, the startup and
// introspection statements that tool sends to a PostgreSQL data source
// before a user runs anything. A file is a sequence of blocks separated by
// blank lines. A block that holds only comments is a note and is skipped.
// Any other block starts with header lines of the form "-- tag: text":
//
//	-- <tool>: what the query is for. Source: repository and file
//	-- columns: a, b        result columns the tool reads by name
//	-- contains: x, y       values that must appear in some result cell
//	-- params: p1, p2       text values bound to $1, $2, ...; a comma
//	                        inside braces ({r,p,f}) does not separate
//
// and the remaining lines are one SQL statement. The tool tag must be the
// file's base name. The statements run against biSchema.

// biSchema is the small database every BI statement runs against: two
// tables joined by a foreign key, an index, a view and comments.
var biSchema = []string{
	`CREATE TABLE customers (id integer PRIMARY KEY, name varchar(100) NOT NULL, email text UNIQUE, created_at timestamp)`,
	`CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers (id),
		total numeric(10,2), status text DEFAULT 'new', ordered_at timestamptz)`,
	`CREATE INDEX orders_ordered_at_idx ON orders (ordered_at)`,
	`CREATE VIEW order_totals AS SELECT c.name, sum(o.total) AS total
		FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name`,
	`COMMENT ON TABLE orders IS 'customer orders'`,
	`COMMENT ON COLUMN orders.total IS 'order total in euros'`,
	`INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com', '2024-01-02 03:04:05'), (2, 'Grace', NULL, NULL)`,
	`INSERT INTO orders VALUES (10, 1, 12.50, 'shipped', '2024-03-01 10:00:00+00'),
		(11, 1, 7.25, 'new', '2024-03-15 12:30:00+00'), (12, 2, 100.00, 'shipped', '2024-04-02 08:00:00+00')`,
}

// biQuery is one statement of a BI tool's corpus file.
type biQuery struct {
	tool     string
	purpose  string
	line     int
	sql      string
	columns  []string
	contains []string
	params   []any
}

var biHeader = regexp.MustCompile(`^-- ([a-z_]+): ?(.*)$`)

// loadBIQueries parses one corpus file; see the comment at the top of this
// file for the format.
func loadBIQueries(path string) ([]biQuery, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tool := strings.TrimSuffix(filepath.Base(path), ".sql")
	var (
		out   []biQuery
		block []string
		start int
	)
	flush := func() error {
		defer func() { block = nil }()
		if len(block) == 0 {
			return nil
		}
		m := biHeader.FindStringSubmatch(block[0])
		if m == nil {
			if allComments(block) {
				return nil
			}
			return fmt.Errorf("%s:%d: block does not start with %q", path, start, "-- "+tool+":")
		}
		if m[1] != tool {
			return fmt.Errorf("%s:%d: tool %q, want %q", path, start, m[1], tool)
		}
		q := biQuery{tool: tool, purpose: m[2], line: start}
		i := 1
		for ; i < len(block); i++ {
			h := biHeader.FindStringSubmatch(block[i])
			if h == nil {
				break
			}
			switch h[1] {
			case "columns":
				q.columns = splitList(h[2])
			case "contains":
				q.contains = splitList(h[2])
			case "params":
				for _, p := range splitParams(h[2]) {
					q.params = append(q.params, p)
				}
			default:
				return fmt.Errorf("%s:%d: unknown header %q", path, start+i, h[1])
			}
		}
		q.sql = strings.Join(block[i:], "\n")
		if strings.TrimSpace(q.sql) == "" {
			return fmt.Errorf("%s:%d: block has no statement", path, start)
		}
		out = append(out, q)
		return nil
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t")
		if line == "" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		if len(block) == 0 {
			start = n
		}
		block = append(block, line)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, flush()
}

func allComments(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "--") {
			return false
		}
	}
	return true
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// splitParams splits a params header at the commas outside braces, so that
// an array literal such as {r,p,f} is one parameter.
func splitParams(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		switch {
		case i < len(s) && s[i] == '{':
			depth++
		case i < len(s) && s[i] == '}':
			depth--
		case i == len(s) || s[i] == ',' && depth == 0:
			if f := strings.TrimSpace(s[start:i]); f != "" {
				out = append(out, f)
			}
			start = i + 1
		}
	}
	return out
}

// biModes are the three ways the corpus is replayed: JDBC-like clients
// prepare, describe and then execute each statement; psycopg 3 (pgcli)
// sends each statement with its parameters as text of no declared type;
// some tools, and every psql-like client, send the text with the simple
// protocol.
var biModes = []struct {
	name string
	mode pgx.QueryExecMode
}{
	{"cache_describe", pgx.QueryExecModeCacheDescribe},
	{"exec", pgx.QueryExecModeExec},
	{"simple", pgx.QueryExecModeSimpleProtocol},
}

// TestBITools replays every statement of every BI tool's corpus against a
// Mallard server holding biSchema, in both protocol modes. It is the
// specification of the Postgres compatibility BI tools need: a statement
// that fails here is one a tool sends and Mallard cannot yet answer.
func TestBITools(t *testing.T) {
	addr := startServer(t, sqlfront.Config{})
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	runBICorpus(t, cfg, loadKnownFailures(t, "bi"))
}

// TestBIToolsPostgres replays the same corpus against real PostgreSQL, which
// checks the corpus itself: every statement and expectation in it must hold
// there.
func TestBIToolsPostgres(t *testing.T) {
	runBICorpus(t, freshPostgresDatabase(t), nil)
}

func runBICorpus(t *testing.T, cfg *pgx.ConnConfig, known *knownFailures) {
	files, err := filepath.Glob(filepath.Join("testdata", "bi", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no BI corpus files: %v", err)
	}
	setup := newBIConn(t, cfg, pgx.QueryExecModeSimpleProtocol)
	for _, stmt := range biSchema {
		if _, err := setup.get(t).Exec(context.Background(), stmt); err != nil {
			t.Fatalf("schema: %s: %v", stmt, err)
		}
	}
	conns := make(map[string]*biConn)
	for _, m := range biModes {
		conns[m.name] = newBIConn(t, cfg, m.mode)
	}
	for _, file := range files {
		queries, err := loadBIQueries(file)
		if err != nil {
			t.Fatal(err)
		}
		tool := strings.TrimSuffix(filepath.Base(file), ".sql")
		t.Run(tool, func(t *testing.T) {
			for _, q := range queries {
				t.Run(strconv.Itoa(q.line), func(t *testing.T) {
					for _, m := range biModes {
						t.Run(m.name, func(t *testing.T) {
							conn := conns[m.name].get(t)
							if known == nil {
								checkBIQuery(t, conn, q)
								return
							}
							known.check(t, func(v verdict) { checkBIQuery(v, conn, q) })
						})
					}
				})
			}
		})
	}
}

// checkBIQuery runs q and reports each way its result differs from what the
// tool relies on.
func checkBIQuery(t verdict, conn *pgx.Conn, q biQuery) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	rows, err := conn.Query(ctx, q.sql, q.params...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var names []string
	for _, fd := range rows.FieldDescriptions() {
		names = append(names, fd.Name)
	}
	var cells []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatalf("%s: decode row: %v", q, err)
		}
		for _, v := range vals {
			cells = append(cells, biCell(v))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	for _, c := range q.columns {
		if !slices.Contains(names, c) {
			t.Errorf("%s: no result column %q; columns are %q", q, c, names)
		}
	}
	for _, v := range q.contains {
		if !slices.Contains(cells, v) {
			t.Errorf("%s: no cell holds %q; %d rows of %d columns", q, v,
				len(cells)/max(len(names), 1), len(names))
		}
	}
}

// String names the query by file and line and says what it is for.
func (q biQuery) String() string {
	purpose, _, _ := strings.Cut(q.purpose, ". Source:")
	return fmt.Sprintf("%s.sql:%d (%s)", q.tool, q.line, purpose)
}

// biCell renders a decoded value as the text a tool would compare names
// with.
func biCell(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []byte:
		return string(v)
	default:
		return fmt.Sprint(v)
	}
}

// biConn is one session in a given exec mode, reopened when a failed
// statement left it closed so later statements are still checked.
type biConn struct {
	cfg  *pgx.ConnConfig
	conn *pgx.Conn
}

func newBIConn(t *testing.T, cfg *pgx.ConnConfig, mode pgx.QueryExecMode) *biConn {
	c := cfg.Copy()
	c.DefaultQueryExecMode = mode
	b := &biConn{cfg: c}
	t.Cleanup(func() {
		if b.conn != nil {
			b.conn.Close(context.Background())
		}
	})
	return b
}

func (b *biConn) get(t *testing.T) *pgx.Conn {
	t.Helper()
	if b.conn != nil && !b.conn.IsClosed() {
		return b.conn
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, b.cfg)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	b.conn = conn
	return conn
}
