package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// prepGoal is the largest ratio of a Mallard function's time to its
// baseline's that meets the goal.
const prepGoal = 1.3

// pivotSource is the query both pivots read: each flight's day, origin
// and delay.
const pivotSource = `SELECT CAST(date AS DATE) AS day, origin, delay FROM flights`

// prepSide is one side of a comparison: the statements that make its
// output table, timed together, and the untimed ones that drop the
// previous run's output first.
type prepSide struct {
	key   string
	drop  []string
	timed []string
}

// prepPair is a Mallard function against SQL that makes the same table,
// and how to check once that the two tables agree.
type prepPair struct {
	label string
	sides [2]prepSide // Mallard's first
	check func(ctx context.Context) (string, error)
}

// prepBench measures Mallard's data preparation functions against DuckDB
// SQL computing the same tables, on one connection to a Mallard server
// process pid that holds the flights in memory.
type prepBench struct {
	o    options
	conn *pgx.Conn
	pid  int
	// rows, days and origins are the sizes of the flights.
	rows, days, origins int64
	times               results
	rss                 map[string][]float64 // MB, the warm-up round's first
}

// runPrep starts a server of its own, loads the flights and measures in
// rounds: round 0 warms up and checks that each pair's tables agree, the
// o.Runs rounds after it are recorded.
func runPrep(ctx context.Context, o options) (err error) {
	path, err := filepath.Abs(o.Flights)
	if err == nil {
		_, err = os.Stat(path)
	}
	if err != nil {
		return fmt.Errorf("flights: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	srv := &mallardServer{bin: o.MallardBin, db: ":memory:", logPath: o.MallardLog, port: port, dataDirs: []string{filepath.Dir(o.Flights)}}
	if err := srv.start(ctx); err != nil {
		return err
	}
	defer func() { err = errors.Join(err, srv.stop()) }()
	conn, err := connect(ctx, srv.dsn())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	b := &prepBench{o: o, conn: conn, pid: srv.cmd.Process.Pid, times: results{}, rss: map[string][]float64{}}
	if err := b.load(ctx, path); err != nil {
		return err
	}
	return b.measure(ctx)
}

func (b *prepBench) load(ctx context.Context, path string) error {
	fmt.Fprintf(b.o.Out, "== prep: loading %s into a server of its own\n", path)
	start := time.Now()
	err := execOn(ctx, b.conn, `CREATE TABLE flights AS SELECT * FROM read_parquet('`+strings.ReplaceAll(path, "'", "''")+`')`)
	if err != nil {
		return err
	}
	err = b.conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT CAST(date AS DATE)), count(DISTINCT origin) FROM flights`).
		Scan(&b.rows, &b.days, &b.origins)
	if err != nil {
		return fmt.Errorf("count flights: %w", err)
	}
	fmt.Fprintf(b.o.Out, "  %d rows, %d days, %d origins, in %.1fs\n", b.rows, b.days, b.origins, time.Since(start).Seconds())
	return nil
}

// measure runs the rounds. The pivot's warm-up comes first, so that it
// is the first pivot the server runs; its output then becomes table wide,
// which the last pair rescales. wide is a table, not a temporary one:
// Mallard's functions read their source on a connection of their own,
// which does not see the caller's temporary tables.
func (b *prepBench) measure(ctx context.Context) error {
	fmt.Fprintln(b.o.Out, "== prep warm-up round (not recorded)")
	pairs := []prepPair{b.pivotPair(), b.rescalePair("rescale", "r", b.rows,
		`'SELECT date, delay, distance FROM flights', time := 'date'`, "flights", "date", []string{"delay", "distance"})}
	if err := b.round(ctx, pairs[:1], 0); err != nil {
		return err
	}
	if err := execOn(ctx, b.conn, `CREATE TABLE wide AS SELECT * FROM p1`); err != nil {
		return err
	}
	wide, err := columns(ctx, b.conn, "wide")
	if err != nil {
		return err
	}
	pairs = append(pairs, b.rescalePair("rescale-wide", "w", b.days, `'wide'`, "wide", "day", wide[1:]))
	if err := b.round(ctx, pairs[1:], 0); err != nil {
		return err
	}
	for round := 1; round <= b.o.Runs; round++ {
		fmt.Fprintf(b.o.Out, "== prep round %d/%d, host load average %.2f\n", round, b.o.Runs, loadAverage())
		if err := b.round(ctx, pairs, round); err != nil {
			return err
		}
	}
	b.report(pairs)
	return nil
}

func (b *prepBench) pivotPair() prepPair {
	native := `(` + pivotSource + `)`
	return prepPair{
		label: fmt.Sprintf("pivot %s rows to %dx%d vs PIVOT", countLabel(int(b.rows)), b.days, b.origins+1),
		sides: [2]prepSide{
			{"pivot/mallard", []string{`DROP TABLE IF EXISTS p1`}, []string{`CREATE TEMP TABLE p1 AS SELECT * FROM pivot_entity_time('` +
				pivotSource + `', entity := 'origin', time := 'day', value := 'delay', agg := 'avg', missing := 'null')`}},
			// Mallard prepares each statement, and PIVOT without IN is
			// several, which DuckDB cannot prepare; these are the two
			// DuckDB rewrites it into.
			{"pivot/native", []string{`DROP TABLE IF EXISTS p2`, `DROP TYPE IF EXISTS prep_origins`}, []string{
				`CREATE TEMP TYPE prep_origins AS ENUM (SELECT DISTINCT CAST(origin AS VARCHAR) FROM ` + native + ` ORDER BY 1)`,
				`CREATE TEMP TABLE p2 AS PIVOT ` + native + ` ON origin IN prep_origins USING avg(delay) GROUP BY day ORDER BY day`,
			}},
		},
		check: b.pivotsAgree,
	}
}

// rescalePair compares rescale(source) with rescaleSQL over table, of
// rows rows, whose columns are timeCol and then cols; their outputs are the
// temporary tables out+"1" and out+"2".
func (b *prepBench) rescalePair(key, out string, rows int64, source, table, timeCol string, cols []string) prepPair {
	t1, t2 := out+"1", out+"2"
	return prepPair{
		label: fmt.Sprintf("rescale %s rows x %d columns vs SQL", countLabel(int(rows)), len(cols)),
		sides: [2]prepSide{
			{key + "/mallard", []string{`DROP TABLE IF EXISTS ` + t1}, []string{`CREATE TEMP TABLE ` + t1 + ` AS SELECT * FROM rescale(` + source + `)`}},
			{key + "/sql", []string{`DROP TABLE IF EXISTS ` + t2}, []string{rescaleSQL(t2, table, timeCol, cols)}},
		},
		check: func(ctx context.Context) (string, error) { return b.sumsAgree(ctx, t1, t2, cols) },
	}
}

// rescaleSQL creates table as rescale(source) does by default: each of
// cols through the signed log, less the mean and over the population
// standard deviation of all those values in the first 70% of the rows in
// time order; every row, in time order, the time column first.
func rescaleSQL(table, source, timeCol string, cols []string) string {
	logs, outs := make([]string, len(cols)), make([]string, len(cols))
	for i, c := range cols {
		x := "CAST(" + quoteIdent(c) + " AS DOUBLE)"
		logs[i] = fmt.Sprintf("CASE WHEN abs(%s) > 1 THEN sign(%s) * (1 + ln(abs(%s))) ELSE %s END", x, x, x, x)
		outs[i] = fmt.Sprintf("(%s - m) / s AS %s", logs[i], quoteIdent(c))
	}
	t := quoteIdent(timeCol)
	return fmt.Sprintf(`CREATE TEMP TABLE %s AS
WITH stats AS (SELECT avg(x) AS m, stddev_pop(x) AS s FROM (SELECT unnest([%s]) AS x
  FROM (SELECT * FROM %s ORDER BY %s LIMIT (SELECT CAST(floor(0.7 * count(*)) AS BIGINT) FROM %s))))
SELECT %s, %s FROM %s, stats ORDER BY %s`,
		table, strings.Join(logs, ", "), source, t, source, t, strings.Join(outs, ", "), source, t)
}

// pivotsAgree checks that p1 and p2 have a row per day and a column per
// origin, in the same order, and that every cell agrees within 1e-9
// relative. p1 names an origin's column by the origin in lower case and p2
// by the origin; where that name is taken, each renames it its own way,
// and p1's column is checked against the average it should hold instead.
func (b *prepBench) pivotsAgree(ctx context.Context) (string, error) {
	c1, err := columns(ctx, b.conn, "p1")
	if err != nil {
		return "", err
	}
	c2, err := columns(ctx, b.conn, "p2")
	if err != nil {
		return "", err
	}
	rows, _ := b.conn.Query(ctx, `SELECT DISTINCT CAST(origin AS VARCHAR) AS o FROM flights ORDER BY o`)
	origins, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", fmt.Errorf("origins: %w", err)
	}
	if len(c1) != len(origins)+1 || len(c2) != len(c1) {
		return "", fmt.Errorf("pivot: p1 has %d columns and p2 %d, want %d", len(c1), len(c2), len(origins)+1)
	}
	var bad, notes []string
	for i, origin := range origins {
		x, y := "p1."+quoteIdent(c1[i+1]), "p2."+quoteIdent(c2[i+1])
		if c1[i+1] != strings.ToLower(c2[i+1]) {
			y = fmt.Sprintf("(SELECT avg(delay) FROM flights WHERE origin = '%s' AND CAST(date AS DATE) = p1.day)", strings.ReplaceAll(origin, "'", "''"))
			notes = append(notes, fmt.Sprintf("; origin %s is p1.%s and p2.%s, so p1.%s was checked against flights", origin, c1[i+1], c2[i+1], c1[i+1]))
		}
		bad = append(bad, fmt.Sprintf("NOT coalesce(%s IS NOT DISTINCT FROM %s OR abs(%s - %s) <= 1e-9 * abs(%s), false)", x, y, x, y, y))
	}
	var n1, n2, joined, differ int64
	err = b.conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM p1), (SELECT count(*) FROM p2), count(*), count(*) FILTER (WHERE `+
		strings.Join(bad, " OR ")+`) FROM p1 JOIN p2 USING (day)`).Scan(&n1, &n2, &joined, &differ)
	switch {
	case err != nil:
		return "", fmt.Errorf("compare pivots: %w", err)
	case n1 != b.days || n2 != b.days || joined != b.days:
		return "", fmt.Errorf("pivot: p1 has %d rows, p2 %d, %d of them on the same days; want %d", n1, n2, joined, b.days)
	case differ != 0:
		return "", fmt.Errorf("pivot: %d of %d rows of p1 disagree%s", differ, b.days, strings.Join(notes, ""))
	}
	return fmt.Sprintf("p1 and p2 have %d rows x %d columns, all %d cells agree within 1e-9 relative%s",
		n1, len(c1), n1*int64(len(origins)), strings.Join(notes, "")), nil
}

// sumsAgree checks that tables x and y have as many rows and that each of
// cols has the same sum in both, within 1e-6 or one part in 1e9 of the
// sum, whichever is larger: the statistics of millions of values carry
// rounding near 1e-12 relative, which a sum of millions of scaled values
// multiplies up past 1e-6.
func (b *prepBench) sumsAgree(ctx context.Context, x, y string, cols []string) (string, error) {
	sx, err := sums(ctx, b.conn, x, cols)
	if err != nil {
		return "", err
	}
	sy, err := sums(ctx, b.conn, y, cols)
	if err != nil {
		return "", err
	}
	names := append([]string{"the row count"}, cols...)
	worst := 0.0
	for i, v := range sx {
		d := math.Abs(v - sy[i])
		if !(d <= max(1e-6, 1e-9*math.Abs(sy[i]))) {
			return "", fmt.Errorf("%s and %s differ: %s is %.17g and %.17g", x, y, names[i], v, sy[i])
		}
		worst = max(worst, d)
	}
	return fmt.Sprintf("%s and %s have %.0f rows and agree on the sums of their %d rescaled columns (largest difference %.3g)",
		x, y, sx[0], len(cols), worst), nil
}

// sums returns the row count of table and the sum of each of cols.
func sums(ctx context.Context, conn *pgx.Conn, table string, cols []string) ([]float64, error) {
	exprs := []string{"CAST(count(*) AS DOUBLE)"}
	for _, c := range cols {
		exprs = append(exprs, "coalesce(fsum("+quoteIdent(c)+"), 0)")
	}
	vals := make([]float64, len(exprs))
	dest := make([]any, len(vals))
	for i := range vals {
		dest[i] = &vals[i]
	}
	if err := conn.QueryRow(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+table).Scan(dest...); err != nil {
		return nil, fmt.Errorf("sum %s: %w", table, err)
	}
	return vals, nil
}

// round takes each pair's two measurements back to back, Mallard's first
// in even rounds, and records them unless round is 0, which instead
// checks that the pair's tables agree.
func (b *prepBench) round(ctx context.Context, pairs []prepPair, round int) error {
	for _, p := range pairs {
		sides := p.sides
		if round%2 == 1 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		for _, s := range sides {
			secs, grew, err := b.take(ctx, s)
			if err != nil {
				return fmt.Errorf("prep %s: %w", s.key, err)
			}
			fmt.Fprintf(b.o.Out, "  %-22s %8.3fs   server peak RSS %+8.1f MB\n", s.key, secs, grew)
			b.rss[s.key] = append(b.rss[s.key], grew)
			if round > 0 {
				b.times.add(s.key, secs)
			}
		}
		if round == 0 {
			msg, err := p.check(ctx)
			if err != nil {
				return fmt.Errorf("prep check: %w", err)
			}
			fmt.Fprintln(b.o.Out, "  checked: "+msg)
		}
	}
	return nil
}

// take drops the side's previous output and times making it anew. It
// returns the seconds taken and by how many MB the server's peak resident
// set rose above its size at the start: writing 5 to clear_refs resets
// the peak (VmHWM) to the current size (VmRSS).
func (b *prepBench) take(ctx context.Context, s prepSide) (secs, grewMB float64, err error) {
	if err := execOn(ctx, b.conn, s.drop...); err != nil {
		return 0, 0, err
	}
	dir := fmt.Sprintf("/proc/%d/", b.pid)
	if err := os.WriteFile(dir+"clear_refs", []byte("5"), 0); err != nil {
		return 0, 0, fmt.Errorf("reset peak RSS: %w", err)
	}
	before, err := procStatusKB(dir, "VmRSS")
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	if err := execOn(ctx, b.conn, s.timed...); err != nil {
		return 0, 0, err
	}
	secs = time.Since(start).Seconds()
	peak, err := procStatusKB(dir, "VmHWM")
	return secs, float64(peak-before) / 1024, err
}

// procStatusKB reads a field given in kB from the status file in dir.
func procStatusKB(dir, field string) (int64, error) {
	text, err := os.ReadFile(dir + "status")
	if err != nil {
		return 0, fmt.Errorf("server status: %w", err)
	}
	for line := range strings.Lines(string(text)) {
		if name, rest, ok := strings.Cut(line, ":"); ok && name == field {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("server status has no %s", field)
}

// report prints each pair's medians and ratio against the goal, then the
// server's peak RSS increases and the sizes of the pivot.
func (b *prepBench) report(pairs []prepPair) {
	out := b.o.Out
	fmt.Fprintf(out, "\n== prep summary: medians of %d rounds; ratio is Mallard / baseline\n", b.o.Runs)
	fmt.Fprintf(out, "%-40s %9s %9s %6s  %-7s %s\n", "measure", "mallard", "baseline", "ratio", "goal", "met")
	for _, p := range pairs {
		m, base := b.times[p.sides[0].key].median(), b.times[p.sides[1].key].median()
		verdict := "met"
		if m/base > prepGoal {
			verdict = "missed"
		}
		fmt.Fprintf(out, "%-40s %8.3fs %8.3fs %6.2f  <= %.1f  %s\n", p.label, m, base, m/base, prepGoal, verdict)
	}
	fmt.Fprintln(out, "server peak RSS increase over its size at the start, MB (the warm-up round's pivot/mallard is the server's first pivot):")
	for _, p := range pairs {
		var parts []string
		for _, s := range p.sides {
			r := b.rss[s.key]
			parts = append(parts, fmt.Sprintf("%-20s warm-up %+7.1f, median %+7.1f", s.key, r[0], measurement{Runs: r[1:]}.median()))
		}
		fmt.Fprintf(out, "  %s   %s\n", parts[0], parts[1])
	}
	fmt.Fprintf(out, "pivot input %d rows x 3 columns (day, origin, delay); output %d rows x %d columns x 8 bytes = %.2f MB\n",
		b.rows, b.days, b.origins+1, float64(b.days*(b.origins+1)*8)/(1<<20))
}

// columns returns the column names of table in order.
func columns(ctx context.Context, conn *pgx.Conn, table string) ([]string, error) {
	rows, err := conn.Query(ctx, "SELECT * FROM "+table+" LIMIT 0")
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	var names []string
	for _, f := range rows.FieldDescriptions() {
		names = append(names, f.Name)
	}
	rows.Close()
	return names, rows.Err()
}

// execOn runs stmts in order on conn.
func execOn(ctx context.Context, conn *pgx.Conn, stmts ...string) error {
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%.60s: %w", s, err)
		}
	}
	return nil
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
