//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// wideUnemployment loads the unemployment data and pivots it into table w.
func wideUnemployment(t *testing.T) *pgx.Conn {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	loadUnemployment(t, conn)
	exec(t, conn, "CREATE TABLE w AS SELECT * FROM "+pivotU+")")
	return conn
}

// signedLog is signed_log as a SQL expression, written independently of Mallard's.
func signedLog(x string) string {
	return fmt.Sprintf("(CASE WHEN %[1]s > 1 THEN 1 + ln(%[1]s) WHEN %[1]s < -1 THEN -(1 + ln(-%[1]s)) ELSE %[1]s END)", x)
}

// TestRescaleStatistics checks the saved mean and standard deviation
// against plain SQL over the first 70 % of the rows in time order, and the
// rescaled cells against the formula.
func TestRescaleStatistics(t *testing.T) {
	ctx := context.Background()
	conn := wideUnemployment(t)
	train := "(SELECT * FROM w ORDER BY year, month LIMIT 85)" // floor(0.7 * 122)
	cells := "(UNPIVOT " + train + " ON COLUMNS(* EXCLUDE (year, month)) INTO NAME k VALUE x)"
	tests := []struct {
		name, args string
		mean, std  string // plain SQL over the training rows, for column agriculture
	}{
		{"signed_log_zscore global", "", "SELECT avg(" + signedLog("x") + ") FROM " + cells, "SELECT stddev_pop(" + signedLog("x") + ") FROM " + cells},
		{"zscore global", ", method := 'zscore'", "SELECT avg(x) FROM " + cells, "SELECT stddev_pop(x) FROM " + cells},
		{"signed_log_zscore per_column", ", stats := 'per_column'",
			"SELECT avg(" + signedLog("agriculture") + ") FROM " + train, "SELECT stddev_pop(" + signedLog("agriculture") + ") FROM " + train},
		{"signed_log", ", method := 'signed_log'", "SELECT 0.0", "SELECT 1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM rescale('w', save_as := 's'"+tt.args+")").Scan(&n); err != nil || n != 122 {
				t.Fatalf("rescale: %d rows, %v", n, err)
			}
			var mean, std, wantMean, wantStd float64
			var trainRows int64
			err := conn.QueryRow(ctx, "SELECT mean[1], std[1], train_rows FROM mlops.scalers WHERE name = 's'").Scan(&mean, &std, &trainRows)
			if err != nil {
				t.Fatal(err)
			}
			if err := conn.QueryRow(ctx, tt.mean).Scan(&wantMean); err != nil {
				t.Fatal(err)
			}
			if err := conn.QueryRow(ctx, tt.std).Scan(&wantStd); err != nil {
				t.Fatal(err)
			}
			if trainRows != 85 || !close(mean, wantMean, 1e-12) || !close(std, wantStd, 1e-12) {
				t.Errorf("train_rows %d mean %v std %v; want 85, %v, %v", trainRows, mean, std, wantMean, wantStd)
			}
			x := signedLog("w.agriculture")
			if strings.Contains(tt.args, "'zscore'") {
				x = "w.agriculture"
			}
			var worst float64
			q := fmt.Sprintf("SELECT max(abs(r.agriculture - (%s - %v) / %v)) FROM rescale('w'%s) r JOIN w USING (year, month)",
				x, mean, std, tt.args)
			if err := conn.QueryRow(ctx, q).Scan(&worst); err != nil {
				t.Fatal(err)
			}
			if worst > 1e-12 {
				t.Errorf("rescaled cells differ from the formula by up to %g", worst)
			}
		})
	}
}

func close(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(1, math.Abs(want))
}

// TestUnscaleRoundTrip checks unscale(rescale(x)) = x for every method and
// kind of statistics, and that rows come out in time order.
func TestUnscaleRoundTrip(t *testing.T) {
	ctx := context.Background()
	conn := wideUnemployment(t)
	exec(t, conn, "INSERT INTO w SELECT 1999, 12, COLUMNS(* EXCLUDE (year, month)) * -1 FROM w LIMIT 1") // negative values too
	for _, method := range []string{"signed_log_zscore", "zscore", "signed_log"} {
		for _, stats := range []string{"global", "per_column"} {
			args := fmt.Sprintf("method := '%s', stats := '%s', save_as := 'rt'", method, stats)
			exec(t, conn, "CREATE OR REPLACE TABLE r AS SELECT * FROM rescale('w', "+args+")")
			var worst float64
			var n int
			err := conn.QueryRow(ctx, `SELECT max(abs(b.construction - w.construction) / greatest(1, abs(w.construction))), count(*)
				FROM unscale('r', scaler := 'rt') b JOIN w USING (year, month)`).Scan(&worst, &n)
			if err != nil {
				t.Fatal(err)
			}
			if n != 123 || worst > 1e-9 {
				t.Errorf("%s: %d rows, round trip off by %g relative", args, n, worst)
			}
			var first int32
			if err := conn.QueryRow(ctx, "SELECT year FROM r LIMIT 1").Scan(&first); err != nil || first != 1999 {
				t.Errorf("%s: first row's year %d, want 1999 (time order)", args, first)
			}
		}
	}
}

// passThroughColumns are a column of each type rescale passes through,
// as DuckDB expressions of i, NULL at every seventh row, and what rescale
// writes for each: those of types it reads as another, cast to it.
var passThroughColumns = []struct{ name, expr, want string }{
	{"b", "i % 3 = 0", ""},
	{"i8", "CAST(i % 200 - 100 AS TINYINT)", ""},
	{"i16", "CAST(i * 7 - 20000 AS SMALLINT)", ""},
	{"i32", "CAST(i * -99991 AS INTEGER)", ""},
	{"i64", "CAST(i AS BIGINT) * 3000000000000", ""},
	{"u8", "CAST(i % 256 AS UTINYINT)", ""},
	{"u16", "CAST(i * 13 AS USMALLINT)", ""},
	{"u32", "CAST(i * 800000 AS UINTEGER)", ""},
	{"u64", "CAST(i AS UBIGINT) * 3000000000000000", ""},
	{"f32", "CAST(i / 3 AS FLOAT)", ""},
	{"f64", "i / 7", ""},
	{"s", "CASE WHEN i % 2 = 0 THEN 'short ' || i ELSE 'a string longer than twelve bytes, ünïcode ' || i END", ""},
	{"d", "DATE '1999-12-25' + CAST(i AS INTEGER)", ""},
	{"ts", "TIMESTAMP '1969-12-31 23:59:59.999999' + i * INTERVAL 1234567 MICROSECONDS", ""},
	{"tstz", "TIMESTAMPTZ '2001-02-03 04:05:06.789+00' + i * INTERVAL 1 HOUR", ""},
	{"tsns", "CAST(TIMESTAMP '2020-01-01' + i * INTERVAL 1 SECOND AS TIMESTAMP_NS) + INTERVAL 1 MICROSECOND", "TIMESTAMP"},
	{"tss", "CAST(TIMESTAMP '1960-01-01' + i * INTERVAL 1 DAY AS TIMESTAMP_S)", "TIMESTAMP"},
	{"dec", "CAST(i / 4 AS DECIMAL(10, 2))", "DOUBLE"},
	{"h", "CAST(i AS HUGEINT) * 1000000007", "DOUBLE"},
}

// TestRescalePassThrough checks that rescale writes every column it does
// not rescale as the source holds it, NULLs included, over several output
// chunks, and that a rescaled column keeps its NULLs.
func TestRescalePassThrough(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	const rows = 5000 // more than two of DuckDB's 2,048-row chunks
	cols := []string{"i AS t", "CASE WHEN i % 5 <> 0 THEN i * 1.5 - 3000 END AS x"}
	var same []string
	for _, c := range passThroughColumns {
		cols = append(cols, fmt.Sprintf("CASE WHEN i %% 7 <> 3 THEN %s END AS %s", c.expr, c.name))
		want := "e." + c.name
		if c.want != "" {
			want = "CAST(" + want + " AS " + c.want + ")"
		}
		same = append(same, fmt.Sprintf("count(*) FILTER (WHERE r.%s IS NOT DISTINCT FROM %s)", c.name, want))
	}
	exec(t, conn, fmt.Sprintf("CREATE TABLE every AS SELECT %s FROM range(%d) r(i) ORDER BY random()", strings.Join(cols, ", "), rows))
	q := fmt.Sprintf(`SELECT count(*), count(*) FILTER (WHERE (r.x IS NULL) = (e.x IS NULL)), %s
		FROM rescale('every', columns := ['x'], time := ['t'], method := 'zscore') r JOIN every e USING (t)`, strings.Join(same, ", "))
	got := make([]int64, 2+len(passThroughColumns))
	dest := make([]any, len(got))
	for i := range got {
		dest[i] = &got[i]
	}
	if err := conn.QueryRow(ctx, q).Scan(dest...); err != nil {
		t.Fatal(err)
	}
	if got[0] != rows || got[1] != rows {
		t.Errorf("%d rows, %d with x NULL where the source's is; want %d", got[0], got[1], rows)
	}
	for i, c := range passThroughColumns {
		if got[2+i] != rows {
			t.Errorf("column %s: %d of %d rows as in the source", c.name, got[2+i], rows)
		}
	}
}

// TestRescaleEndsEarly checks that a rescale the statement stops reading
// (LIMIT) or cancels (statement_timeout) while it writes its output ends
// with the statement and leaves the session usable.
func TestRescaleEndsEarly(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	head := func() []int64 {
		return scanAll[int64](t, conn, "SELECT t FROM rescale('SELECT i AS t, i * 1.5 AS x FROM range(100000) r(i)', time := ['t']) LIMIT 3")
	}
	if got := head(); !slices.Equal(got, []int64{0, 1, 2}) {
		t.Errorf("LIMIT 3: got %v, want [0 1 2]", got)
	}
	exec(t, conn, "SET statement_timeout = '500ms'")
	// Without a time column the training rows are the first read: fitting
	// takes a count and a few rows, and the timeout comes while rescale
	// writes its output.
	e := errorCode(t, conn, "SELECT count(*) FROM rescale('SELECT i * 1.5 AS x FROM range(300000000) r(i)', train_fraction := 0.0001)")
	if e.Code != "57014" {
		t.Errorf("timeout: got %s %q, want 57014", e.Code, e.Message)
	}
	exec(t, conn, "RESET statement_timeout")
	if got := head(); !slices.Equal(got, []int64{0, 1, 2}) {
		t.Errorf("after the timeout: got %v, want [0 1 2]", got)
	}
}

// TestRescaleErrors checks that every bad argument and bad input fails
// with a SQLSTATE and a message naming it, and saves nothing.
func TestRescaleErrors(t *testing.T) {
	conn := wideUnemployment(t)
	exec(t, conn, "CREATE TABLE flat AS SELECT year, month, 3.5 AS c, agriculture FROM w",
		"CREATE TABLE none AS SELECT * FROM w WHERE false",
		"CREATE TABLE texts AS SELECT year, month, 'x' AS label FROM w")
	tests := []struct {
		name, query, code, message string
	}{
		{"train_fraction zero", "rescale('w', train_fraction := 0, save_as := 'bad')", "22023", "train_fraction := 0 is out of range"},
		{"train_fraction one", "rescale('w', train_fraction := 1, save_as := 'bad')", "22023", "train_fraction := 1 is out of range"},
		{"train_fraction text", "rescale('w', train_fraction := 'half', save_as := 'bad')", "42883", "train_fraction must be a number"},
		{"unknown column", "rescale('w', columns := ['nope'], save_as := 'bad')", "42703", "columns := 'nope' names no column"},
		{"text column", "rescale('texts', columns := ['label'], save_as := 'bad')", "42804", "column label has type text"},
		{"no numeric column", "rescale('texts', save_as := 'bad')", "22023", "no numeric column"},
		{"time column", "rescale('w', columns := ['year'], save_as := 'bad')", "22023", "year is a time column"},
		{"bad method", "rescale('w', method := 'minmax', save_as := 'bad')", "22023", "method := 'minmax' is not accepted"},
		{"zero std", "rescale('flat', columns := ['c'], save_as := 'bad')", "22000", "zero standard deviation"},
		{"empty source", "rescale('none', save_as := 'bad')", "22000", "has no rows"},
		{"too few rows", "rescale('SELECT * FROM w LIMIT 2', save_as := 'bad')", "22023", "leaves 1 training rows"},
		{"unknown table", "rescale('nope', save_as := 'bad')", "42P01", "nope"},
		{"unknown scaler", "unscale('w', scaler := 'nope')", "42704", "scaler 'nope' does not exist"},
		{"scaler missing", "unscale('w')", "42883", "scaler is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := errorCode(t, conn, "SELECT * FROM "+tt.query)
			if e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %s %q, want %s containing %q", e.Code, e.Message, tt.code, tt.message)
			}
		})
	}
	var saved int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM mlops.scalers").Scan(&saved); err != nil || saved != 0 {
		t.Errorf("%d scalers saved by failed calls (%v), want 0", saved, err)
	}
}

// TestSignedLog checks the scalar functions through SQL: exact values,
// NULL, infinities, and the inverse.
func TestSignedLog(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	var a, b, c, d, e float64
	var null *float64
	err := conn.QueryRow(ctx, "SELECT signed_log(exp(1)), signed_log(-exp(2)), signed_log(0.5), signed_exp(2), signed_log('inf'::DOUBLE), signed_log(NULL)").
		Scan(&a, &b, &c, &d, &e, &null)
	if err != nil {
		t.Fatal(err)
	}
	if !close(a, 2, 1e-15) || !close(b, -3, 1e-15) || c != 0.5 || !close(d, math.E, 1e-15) || !math.IsInf(e, 1) || null != nil {
		t.Errorf("got %v %v %v %v %v %v", a, b, c, d, e, null)
	}
	var worst float64
	err = conn.QueryRow(ctx, "SELECT max(abs(signed_exp(signed_log(x)) - x) / greatest(1, abs(x))) FROM (SELECT (i - 500) * 1e3 * random() AS x FROM range(1000) r(i))").Scan(&worst)
	if err != nil || worst > 1e-12 {
		t.Errorf("round trip off by %g (%v)", worst, err)
	}
}

// flightsParquet is the Vega flights data set that bench prep rescales.
var flightsParquet = filepath.Join("..", "..", "shared", "data", "vega", "flights-3m.parquet")

// BenchmarkRescale measures rescale as bench prep does: the flights' two
// numeric columns in time order into a temporary table.
func BenchmarkRescale(b *testing.B) {
	path, err := filepath.Abs(flightsParquet)
	if err == nil {
		_, err = os.Stat(path)
	}
	if err != nil {
		b.Skip("no flights data:", err)
	}
	conn := connect(b, startServer(b), pgx.QueryExecModeSimpleProtocol)
	exec(b, conn, "CREATE TABLE flights AS SELECT * FROM read_parquet('"+path+"')")
	for b.Loop() {
		exec(b, conn, "CREATE OR REPLACE TEMP TABLE r AS SELECT * FROM rescale('SELECT date, delay, distance FROM flights', time := 'date')")
	}
}
