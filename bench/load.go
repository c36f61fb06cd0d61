package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// The load test: N GB of long events (entity, ts, value) as Parquet files,
// pivoted per entity and month, rescaled and trained on by a server with a
// memory limit, against DuckDB's own GROUP BY + PIVOT of the same files on
// the same server.
const (
	// loadMonths is the span of the events: ten years of months.
	loadMonths = 120
	// loadFileGB is the size each generated file aims at.
	loadFileGB = 0.5
	// loadHeadroom is the free disk asked for beyond the files: DuckDB's
	// spill files and the server's database.
	loadHeadroom = 1.15
	// loadSampleRows is the size of the first file, which measures the
	// bytes a row takes.
	loadSampleRows = 4_000_000
	// loadPivotGoal and loadRSSGoalGB are issue 25's goals.
	loadPivotGoal = 1.3
	loadRSSGoalGB = 3.0
)

// loadEventsSQL makes rows [from, to) of the events. Every value comes from
// hash() of the row number and the seed, so the files are the same for a
// seed whatever DuckDB's threads do. Entity e of n takes a share of the
// rows falling as a power of e (the largest has hundreds of times the
// smallest); each entity is silent in about one month in ten (gaps); the
// values are log-normal.
func loadEventsSQL(from, to int64, entities int, seed int64) string {
	// hash() of one integer mixes well; hash() of several combines them
	// in a way that leaves draws of the same row correlated.
	u := func(k int) string {
		return fmt.Sprintf("(hash(i * 8 + %d + %d) / 18446744073709551616.0)", k, seed<<40)
	}
	return fmt.Sprintf(`SELECT entity, ts, value FROM (
  SELECT CAST(floor(%d * pow(%s, 2.5)) AS BIGINT) AS entity,
         TIMESTAMP '2015-01-01' + to_months(CAST(floor(%s * %d) AS INTEGER))
           + to_microseconds(CAST(floor(%s * 28 * 86400e6) AS BIGINT)) AS ts,
         exp(2 * sqrt(-2 * ln(greatest(%s, 1e-300))) * cos(2 * pi() * %s)) AS value
  FROM range(%d, %d) AS r(i))
WHERE hash(entity * 1000 + month(ts) + 12 * year(ts) + %d) %% 10 <> 0`,
		entities, u(1), u(2), loadMonths, u(3), u(4), u(5), from, to, seed<<40)
}

// loadBench is one run of the load test.
type loadBench struct {
	o     options
	dir   string
	glob  string
	conn  *pgx.Conn
	pid   int
	stats []loadStat
}

// loadStat is one stage's time and the server's peak resident set during it.
type loadStat struct {
	stage  string
	secs   float64
	peakGB float64
}

// runLoad generates the events (unless -load-dir already holds them for
// the same size, entities and seed), then measures the stages.
func runLoad(ctx context.Context, o options) (err error) {
	if o.LoadGB <= 0 || o.LoadEntities < 2 || o.LoadEpochs < 1 {
		return errors.New("load: -gb and -load-epochs must be positive and -load-entities at least 2")
	}
	dir := o.LoadDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "mallard-load-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b := &loadBench{o: o, dir: dir, glob: filepath.Join(dir, "events-*.parquet")}
	if err := b.generate(ctx); err != nil {
		return err
	}
	return b.measure(ctx)
}

// manifest names the data a directory holds; a directory whose manifest
// matches is reused.
func (b *loadBench) manifest() string {
	return fmt.Sprintf("gb=%g entities=%d seed=%d months=%d v2\n", b.o.LoadGB, b.o.LoadEntities, b.o.LoadSeed, loadMonths)
}

// generate writes the files: a sample file first, to learn how many bytes
// a row takes, then files of about loadFileGB until the total reaches -gb.
// It checks first that the disk has room, with headroom.
func (b *loadBench) generate(ctx context.Context) error {
	mpath := filepath.Join(b.dir, "manifest.txt")
	if text, err := os.ReadFile(mpath); err == nil && string(text) == b.manifest() {
		fmt.Fprintf(b.o.Out, "== load: reusing the events in %s\n", b.dir)
		return nil
	}
	old, _ := filepath.Glob(b.glob)
	for _, f := range append(old, mpath) {
		_ = os.Remove(f)
	}
	need := int64(b.o.LoadGB * 1e9 * loadHeadroom)
	if free, err := freeBytes(b.dir); err != nil {
		return err
	} else if free < need {
		return fmt.Errorf("load: -gb %g needs %.1f GB free in %s (the files and %.0f%% headroom for spill files); it has %.1f GB free",
			b.o.LoadGB, float64(need)/1e9, b.dir, (loadHeadroom-1)*100, float64(free)/1e9)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(b.o.Out, "== load: generating %.1f GB of events (%d entities, %d months, seed %d) in %s\n",
		b.o.LoadGB, b.o.LoadEntities, loadMonths, b.o.LoadSeed, b.dir)
	start := time.Now()
	var rows, written int64
	rowBytes := 0.0
	for file := 0; written < int64(b.o.LoadGB*1e9); file++ {
		n := int64(loadSampleRows)
		if rowBytes > 0 {
			left := float64(int64(b.o.LoadGB*1e9) - written)
			n = int64(math.Ceil(min(left, loadFileGB*1e9) / rowBytes))
		}
		path := filepath.Join(b.dir, fmt.Sprintf("events-%04d.parquet", file))
		q := fmt.Sprintf("COPY (%s) TO '%s' (FORMAT parquet, COMPRESSION zstd)",
			loadEventsSQL(rows, rows+n, b.o.LoadEntities, b.o.LoadSeed), path)
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("generate %s: %w", path, err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		rows += n
		written += fi.Size()
		rowBytes = float64(written) / float64(rows)
	}
	fmt.Fprintf(b.o.Out, "  %d rows drawn (about 10%% fall in gaps), %.2f GB, %.1f bytes a row drawn, in %.1fs\n",
		rows, float64(written)/1e9, rowBytes, time.Since(start).Seconds())
	return os.WriteFile(mpath, []byte(b.manifest()), 0o644)
}

// freeBytes is the space an unprivileged process may still write in dir.
func freeBytes(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", dir, err)
	}
	return int64(st.Bavail) * st.Bsize, nil
}

// measure starts a server with the memory limit and runs the stages on it.
func (b *loadBench) measure(ctx context.Context) (err error) {
	port, err := freePort()
	if err != nil {
		return err
	}
	// The server reads its memory limit from the environment as from the flag.
	if err := os.Setenv("MALLARD_MEMORY_LIMIT", b.o.LoadMemory); err != nil {
		return err
	}
	srv := &mallardServer{bin: b.o.MallardBin, db: ":memory:", logPath: b.o.MallardLog,
		port: port, dataDirs: []string{b.dir}}
	if err := srv.start(ctx); err != nil {
		return err
	}
	defer func() { err = errors.Join(err, srv.stop()) }()
	if b.conn, err = connect(ctx, srv.dsn()); err != nil {
		return err
	}
	defer b.conn.Close(context.Background())
	b.pid = srv.cmd.Process.Pid
	fmt.Fprintf(b.o.Out, "== load: server with --memory-limit %s, host load average %.2f\n", b.o.LoadMemory, loadAverage())
	if err := b.stages(ctx); err != nil {
		return err
	}
	return b.report(ctx)
}

// source is the pivot's source query: the events with their month.
func (b *loadBench) source() string {
	return fmt.Sprintf("SELECT entity, date_trunc('month', ts) AS month, value FROM read_parquet('%s')", b.glob)
}

func (b *loadBench) stages(ctx context.Context) error {
	src := b.source()
	lit := strings.ReplaceAll(src, "'", "''")
	native := "(" + src + ")"
	type stage struct {
		name        string
		drop, stmts []string // drop runs untimed first
	}
	scan := stage{name: "scan (count, sum)", stmts: []string{fmt.Sprintf("SELECT count(*), sum(value) FROM read_parquet('%s')", b.glob)}}
	duck := stage{"pivot/duckdb", []string{`DROP TABLE IF EXISTS p2`, `DROP TYPE IF EXISTS load_entities`}, []string{
		`CREATE TYPE load_entities AS ENUM (SELECT DISTINCT CAST(entity AS VARCHAR) FROM ` + native + ` ORDER BY 1)`,
		`CREATE TABLE p2 AS PIVOT ` + native + ` ON entity IN load_entities USING sum(value) GROUP BY month ORDER BY month`}}
	mallard := stage{"pivot/mallard", []string{`DROP TABLE IF EXISTS monthly`}, []string{`CREATE TABLE monthly AS SELECT * FROM pivot_entity_time('` + lit +
		`', entity := 'entity', time := 'month', value := 'value', agg := 'sum', missing := 'zero')`}}
	// The two pivots alternate, the baseline first in even rounds: the
	// host is shared, and its load drifts.
	stages := []stage{scan}
	for round := range b.o.Runs {
		if round%2 == 0 {
			stages = append(stages, duck, mallard)
		} else {
			stages = append(stages, mallard, duck)
		}
	}
	stages = append(stages,
		stage{name: "rescale", stmts: []string{`CREATE TABLE scaled AS SELECT * FROM rescale('monthly', time := 'month')`}},
		stage{name: "train_gat", stmts: []string{fmt.Sprintf(`SELECT count(*) FROM train_gat('scaled', model := 'load_gat', time := 'month', `+
			`neighbors := 10, epochs := %d, workers := 2, deploy := 'never')`, b.o.LoadEpochs)}})
	for _, s := range stages {
		for _, q := range s.drop {
			if _, err := b.conn.Exec(ctx, q); err != nil {
				return fmt.Errorf("load %s: %w", s.name, err)
			}
		}
		st, err := b.take(ctx, s.name, s.stmts)
		if err != nil {
			return fmt.Errorf("load %s: %w", s.name, err)
		}
		fmt.Fprintf(b.o.Out, "  %-18s %9.2fs   server peak RSS %6.2f GB\n", st.stage, st.secs, st.peakGB)
		b.stats = append(b.stats, st)
	}
	return nil
}

// take times stmts; the server's peak resident set is reset to its current
// size first (writing 5 to clear_refs), so the peak is the stage's.
func (b *loadBench) take(ctx context.Context, name string, stmts []string) (loadStat, error) {
	dir := fmt.Sprintf("/proc/%d/", b.pid)
	if err := os.WriteFile(dir+"clear_refs", []byte("5"), 0); err != nil {
		return loadStat{}, fmt.Errorf("reset peak RSS: %w", err)
	}
	start := time.Now()
	for _, q := range stmts {
		rows, err := b.conn.Query(ctx, q)
		if err != nil {
			return loadStat{}, err
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return loadStat{}, fmt.Errorf("%.80s: %w", q, err)
		}
	}
	secs := time.Since(start).Seconds()
	peak, err := procStatusKB(dir, "VmHWM")
	return loadStat{stage: name, secs: secs, peakGB: float64(peak) / (1 << 20)}, err
}

// report checks that the two pivots agree in shape and in the total of
// their cells, and prints the summary.
func (b *loadBench) report(ctx context.Context) error {
	var rows1, rows2, cols1, cols2 int64
	err := b.conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM monthly), (SELECT count(*) FROM p2),
  (SELECT count(*) FROM duckdb_columns() WHERE table_name = 'monthly'), (SELECT count(*) FROM duckdb_columns() WHERE table_name = 'p2')`).
		Scan(&rows1, &rows2, &cols1, &cols2)
	if err != nil {
		return fmt.Errorf("load check: %w", err)
	}
	var sum1, sum2 float64
	total := func(table string) string {
		return `(SELECT sum(v) FROM (UNPIVOT ` + table + ` ON COLUMNS(* EXCLUDE (month)) INTO NAME e VALUE v))`
	}
	if err := b.conn.QueryRow(ctx, `SELECT `+total("monthly")+`, `+total("p2")).Scan(&sum1, &sum2); err != nil {
		return fmt.Errorf("load check: %w", err)
	}
	out := b.o.Out
	fmt.Fprintf(out, "\n== load summary (%g GB of Parquet, --memory-limit %s)\n", b.o.LoadGB, b.o.LoadMemory)
	fmt.Fprintf(out, "pivot: %d months x %d columns (Mallard), %d x %d (DuckDB PIVOT); cell totals %.9g and %.9g\n",
		rows1, cols1, rows2, cols2, sum1, sum2)
	var mallard, duck, peak float64 // the pivots' times summed over the rounds
	for _, s := range b.stats {
		switch s.stage {
		case "pivot/mallard":
			mallard += s.secs
		case "pivot/duckdb":
			duck += s.secs
		}
		peak = max(peak, s.peakGB)
	}
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "missed"
	}
	fmt.Fprintf(out, "pivot/mallard / pivot/duckdb over %d rounds = %.1fs / %.1fs = %.2f (goal <= %.1f: %s)\n", b.o.Runs, mallard, duck, mallard/duck, loadPivotGoal, verdict(mallard/duck <= loadPivotGoal))
	fmt.Fprintf(out, "server peak RSS over all stages %.2f GB (goal <= %.1f GB: %s)\n", peak, loadRSSGoalGB, verdict(peak <= loadRSSGoalGB))
	if rows1 != rows2 || cols1 != cols2 || !(math.Abs(sum1-sum2) <= 1e-9*math.Abs(sum2)) {
		return fmt.Errorf("load: the pivots differ: %dx%d totalling %.17g and %dx%d totalling %.17g", rows1, cols1, sum1, rows2, cols2, sum2)
	}
	return nil
}
