//go:build duckdb_arrow

package functions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

const pivotU = "pivot_entity_time('u', entity := 'series', time := ['year', 'month'], value := 'count'"

// TestPivotUnemployment pivots the 14 industries x 122 months and checks the
// shape, the column names, the time order and sampled cells against a plain
// aggregate.
func TestPivotUnemployment(t *testing.T) {
	for _, m := range []struct {
		name string
		mode pgx.QueryExecMode
	}{{"simple", pgx.QueryExecModeSimpleProtocol}, {"extended", pgx.QueryExecModeCacheStatement}} {
		t.Run(m.name, func(t *testing.T) {
			conn := connect(t, startServer(t), m.mode)
			loadUnemployment(t, conn)
			for range 2 { // a cached prepared statement runs again from the start
				checkUnemploymentPivot(t, conn)
			}
		})
	}
}

func checkUnemploymentPivot(t *testing.T, conn *pgx.Conn) {
	ctx := context.Background()
	rows, err := conn.Query(ctx, "SELECT * FROM "+pivotU+")")
	if err != nil {
		t.Fatal(err)
	}
	fields := rows.FieldDescriptions()
	var names []string
	for _, f := range fields {
		names = append(names, f.Name)
	}
	if len(names) != 16 || names[0] != "year" || names[1] != "month" || names[2] != "agriculture" ||
		names[15] != "wholesale_and_retail_trade" {
		t.Fatalf("columns = %v", names)
	}
	var got [][]any
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 122 {
		t.Fatalf("%d rows, want 122", len(got))
	}
	for i := 1; i < len(got); i++ {
		prev, cur := got[i-1][0].(int32)*12+got[i-1][1].(int32), got[i][0].(int32)*12+got[i][1].(int32)
		if cur <= prev {
			t.Fatalf("row %d (%v-%v) is not after row %d", i, got[i][0], got[i][1], i-1)
		}
	}
	series := map[string]string{"agriculture": "Agriculture", "government": "Government",
		"wholesale_and_retail_trade": "Wholesale and Retail Trade", "mining_and_extraction": "Mining and Extraction"}
	for _, r := range []int{0, 7, 60, 121} {
		for col, name := range series {
			idx := indexOf(names, col)
			var want float64
			err := conn.QueryRow(ctx, "SELECT sum(count)::DOUBLE FROM u WHERE series = $1 AND year = $2 AND month = $3",
				name, got[r][0], got[r][1]).Scan(&want)
			if err != nil {
				t.Fatal(err)
			}
			if got[r][idx] != want {
				t.Errorf("row %d %s = %v, want %v", r, col, got[r][idx], want)
			}
		}
	}
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// TestPivotMissing removes one row and checks each missing := policy.
func TestPivotMissing(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	loadUnemployment(t, conn)
	exec(t, conn, "DELETE FROM u WHERE series = 'Mining and Extraction' AND year = 2001 AND month = 3")

	e := errorCode(t, conn, "SELECT * FROM "+pivotU+")")
	if e.Code != "22000" || !strings.Contains(e.Message, "1 of 1708 cells") ||
		!strings.Contains(e.Detail, "'Mining and Extraction', year=2001, month=3") {
		t.Errorf("missing := 'error': %s %q detail %q", e.Code, e.Message, e.Detail)
	}
	cell := func(missing string, month int) *float64 {
		var v *float64
		err := conn.QueryRow(ctx, "SELECT mining_and_extraction FROM "+pivotU+", missing := '"+missing+"') WHERE year = 2001 AND month = $1",
			month).Scan(&v)
		if err != nil {
			t.Fatalf("missing := %s: %v", missing, err)
		}
		return v
	}
	feb := cell("null", 2)
	if feb == nil || *feb != 27 {
		t.Fatalf("February 2001 = %v, want 27", feb)
	}
	if v := cell("null", 3); v != nil {
		t.Errorf("missing := 'null': March = %v, want NULL", *v)
	}
	if v := cell("zero", 3); v == nil || *v != 0 {
		t.Errorf("missing := 'zero': March = %v, want 0", v)
	}
	if v := cell("ffill", 3); v == nil || *v != *feb {
		t.Errorf("missing := 'ffill': March = %v, want February's %v", v, *feb)
	}
	if v := cell("ffill", 4); v == nil || *v != 24 {
		t.Errorf("missing := 'ffill': April = %v, want its own 24", v)
	}
}

// TestPivotAggregates checks every agg := on duplicate (entity, time) rows.
func TestPivotAggregates(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, "CREATE TABLE ev (e VARCHAR, t DATE, v DOUBLE)",
		"INSERT INTO ev VALUES ('a', '2024-01-01', 1), ('a', '2024-01-01', 5), ('a', '2024-01-01', 3), "+
			"('b', '2024-01-01', 2), ('a', '2024-01-02', NULL), ('b', '2024-01-02', 4), ('a', '2024-01-02', 6)")
	for _, tt := range []struct {
		agg  string
		want float64
	}{{"sum", 9}, {"avg", 3}, {"min", 1}, {"max", 5}, {"count", 3}, {"last", 3}} {
		var a, b float64
		err := conn.QueryRow(context.Background(), "SELECT a, b FROM pivot_entity_time('ev', entity := 'e', time := 't', value := 'v', agg := '"+
			tt.agg+"') ORDER BY t LIMIT 1").Scan(&a, &b)
		if err != nil {
			t.Fatalf("agg := %s: %v", tt.agg, err)
		}
		if a != tt.want || (tt.agg != "count" && b != 2) {
			t.Errorf("agg := %s: a = %v, b = %v; want a = %v", tt.agg, a, b, tt.want)
		}
	}
	// Postgres spellings: => for named arguments, ARRAY[...] for lists.
	var a float64
	err := conn.QueryRow(context.Background(), "SELECT a FROM pivot_entity_time('ev', entity => 'e', time => ARRAY['t'], value => 'v', agg => 'max') ORDER BY t LIMIT 1").Scan(&a)
	if err != nil || a != 5 {
		t.Errorf("Postgres spellings: a = %v, %v; want 5", a, err)
	}
}

// TestPivotDuplicates appends a month twice, as a user reloading a file
// does: by default the repeated cells are summed, as before, but a NOTICE
// counts them; duplicates := 'error' refuses them (21000), 'avg' and
// 'last' combine them silently, and agg and duplicates that disagree are
// refused (22023). A source without repeated cells sends no NOTICE.
func TestPivotDuplicates(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	loadUnemployment(t, conn)
	exec(t, conn, "INSERT INTO u SELECT * FROM u WHERE year = 2001 AND month = 3")
	ctx := context.Background()
	first := func(args string) (float64, error) {
		var v float64
		err := conn.QueryRow(ctx, "SELECT mining_and_extraction FROM pivot_entity_time('u', entity := 'series', time := ['year', 'month'], value := 'count'"+
			args+") WHERE year = 2001 AND month = 3").Scan(&v)
		return v, err
	}
	once, err := first(", duplicates := 'last'")
	if err != nil {
		t.Fatal(err)
	}
	if summed, err := first(""); err != nil || summed != 2*once {
		t.Errorf("default: %v (%v), want the repeated month summed, %v", summed, err, 2*once)
	}
	want := "14 (entity, time) cells have more than one row, 28 rows in all; combined by agg := 'sum'"
	if len(notices) != 1 || !strings.Contains(notices[0], want) || !strings.Contains(notices[0], "duplicates := 'sum', 'avg', 'last' or 'error'") {
		t.Errorf("notices %q, want one saying %q", notices, want)
	}
	if avg, err := first(", duplicates := 'avg'"); err != nil || avg != once {
		t.Errorf("duplicates := 'avg': %v (%v), want %v", avg, err, once)
	}
	if _, err := first(", agg := 'max'"); err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 {
		t.Errorf("a chosen duplicates or agg sent notices %q", notices[1:])
	}
	for _, tt := range []struct{ args, code, message string }{
		{", duplicates := 'error'", "21000", "14 (entity, time) cells have more than one row, 28 rows in all (duplicates := 'error')"},
		{", duplicates := 'avg', agg := 'sum'", "22023", "duplicates := 'avg' and agg := 'sum' disagree"},
		{", duplicates := 'first'", "22023", "duplicates := 'first' is not accepted"},
	} {
		e := errorCode(t, conn, "SELECT * FROM pivot_entity_time('u', entity := 'series', time := ['year', 'month'], value := 'count'"+tt.args+")")
		if e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
			t.Errorf("%s: %s %q, want %s containing %q", tt.args, e.Code, e.Message, tt.code, tt.message)
		}
	}
	exec(t, conn, "DELETE FROM u WHERE rowid IN (SELECT max(rowid) FROM u GROUP BY series, year, month HAVING count(*) > 1)")
	notices = nil
	if _, err := first(", duplicates := 'error'"); err != nil {
		t.Errorf("duplicates := 'error' without repeated rows: %v", err)
	}
	if _, err := first(""); err != nil || len(notices) != 0 {
		t.Errorf("without repeated rows: %v, notices %q", err, notices)
	}
}

// TestPivotNames checks that entity values become distinct, safe column names.
func TestPivotNames(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, "CREATE TABLE ev (e VARCHAR, month INTEGER, v DOUBLE)",
		`INSERT INTO ev VALUES ('Foo Bar', 1, 1), ('foo-bar', 1, 2), ('7up', 1, 3), ('month', 1, 4), ('Ünï', 1, 5), ('', 1, 6)`)
	rows, err := conn.Query(context.Background(), "SELECT * FROM pivot_entity_time('ev', entity := 'e', time := 'month', value := 'v')")
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	var names []string
	for _, f := range rows.FieldDescriptions() {
		names = append(names, f.Name)
	}
	want := []string{"month", "e", "e_7up", "foo_bar", "foo_bar_2", "month_2", "n"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("columns = %v, want %v", names, want)
	}
}

// TestPivotErrors checks that every bad argument fails before any work
// with a SQLSTATE and a message naming it.
func TestPivotErrors(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	loadUnemployment(t, conn)
	exec(t, conn, "CREATE TABLE empty (e VARCHAR, t INTEGER, v DOUBLE)",
		"CREATE TABLE nulls AS SELECT * FROM (VALUES ('a', 1, 1.0), (NULL, 1, 2.0)) AS x(e, t, v)")
	const call = "SELECT * FROM pivot_entity_time("
	tests := []struct {
		name, args, code, message string
	}{
		{"entity not text", "'u', entity := 3, time := 'year', value := 'count'", "42883", "entity must be text"},
		{"entity missing", "'u', time := 'year', value := 'count'", "42883", "entity is required"},
		{"unknown column", "'u', entity := 'nope', time := 'year', value := 'count'", "42703", "entity := 'nope' names no column"},
		{"unknown time column", "'u', entity := 'series', time := ['year', 'nope'], value := 'count'", "42703", "time := 'nope'"},
		{"unknown table", "'nope', entity := 'series', time := 'year', value := 'count'", "42P01", "nope"},
		{"bad agg", "'u', entity := 'series', time := 'year', value := 'count', agg := 'median'", "22023", "agg := 'median' is not accepted"},
		{"bad missing", "'u', entity := 'series', time := 'year', value := 'count', missing := 'drop'", "22023", "missing := 'drop'"},
		{"text value", "'u', entity := 'year', time := 'month', value := 'series'", "42804", "value column series has type text"},
		{"varchar value", "'SELECT year, month, series::varchar(40) AS s FROM u', entity := 'year', time := 'month', value := 's'", "42804",
			"value column s has type character varying"},
		{"same column", "'u', entity := 'series', time := 'series', value := 'count'", "22023", "both a time column and the entity"},
		{"too many entities", "'u', entity := 'series', time := 'year', value := 'count', max_entities := 5", "54000", "more than 5 entities"},
		{"max_entities zero", "'u', entity := 'series', time := 'year', value := 'count', max_entities := 0", "22023", "max_entities := 0 is out of range"},
		{"empty source", "'empty', entity := 'e', time := 't', value := 'v'", "22000", "has no rows"},
		{"null entity", "'nulls', entity := 'e', time := 't', value := 'v'", "22004", "entity column e has NULL values"},
		{"bad query", "'SELECT nope FROM u', entity := 'series', time := 'year', value := 'count'", "42703", "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := errorCode(t, conn, call+tt.args+")")
			if e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %s %q, want %s containing %q", e.Code, e.Message, tt.code, tt.message)
			}
		})
	}
}

// TestPivotStatementTimeout checks that the caller's statement_timeout
// stops a pivot reading a large source.
func TestPivotStatementTimeout(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, "SET statement_timeout = '300ms'")
	e := errorCode(t, conn, "SELECT count(*) FROM pivot_entity_time("+
		"'SELECT i % 7 AS e, i // 7 AS t, sqrt(i) AS v FROM range(2000000000) r(i)', entity := 'e', time := 't', value := 'v', missing := 'null')")
	if e.Code != "57014" {
		t.Errorf("got %s %q, want 57014", e.Code, e.Message)
	}
	var one int
	if err := conn.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("the session after the timeout: %v", err)
	}
}
