//go:build duckdb_arrow

package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
)

// TestLoad runs loadClients concurrent sessions against one real server for
// MALLARD_LOAD_SECONDS (default 60, 10 with -short), mixing aggregate and
// catalog reads, parameterised inserts, COPY FROM STDIN batches and
// explicit transactions of which a third roll back, while one train_gat
// run trains on the shipped unemployment data.
//
// No error is expected, so every error fails the test: each client writes
// only its own key range, nothing updates or deletes a row another session
// could touch and no DDL runs during the load, which leaves DuckDB's
// optimistic concurrency control nothing to conflict on.
//
// Afterwards the table holds exactly the committed rows, each with the
// values it was written with, and the training run has succeeded. The
// server's RSS is sampled every second; see checkRSS for what is asserted.
func TestLoad(t *testing.T) {
	duration := loadDuration(t)
	ctx, cancel := context.WithTimeout(context.Background(), duration+3*time.Minute)
	defer cancel()
	// Everything an operator turns on: the log at info, statement
	// statistics (on by default) and metrics on the dashboard's port.
	httpAddr := freePort(t)
	server := startMallard(t, filepath.Join(t.TempDir(), "load.duckdb"), "--log-level", "info", "--http", httpAddr)
	admin := server.connect(t)
	setupLoad(t, admin)

	training := startLoadTraining(ctx, t, server)
	clients := make([]*loadClient, loadClients)
	for i := range clients {
		clients[i] = newLoadClient(ctx, t, server, i)
	}
	sampler := startRSSSampler(server, admin)
	start := time.Now()
	end := start.Add(duration)
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.run(ctx, end)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	samples := sampler.stop()
	if err := server.running(); err != nil {
		t.Fatal(err)
	}

	reportLoad(t, clients, elapsed)
	reportLoadMetrics(t, httpAddr)
	for _, c := range clients {
		for _, e := range c.errs {
			t.Errorf("unexpected error: %s", e)
		}
	}
	training.check(ctx, t, admin)
	verifyLoadRows(ctx, t, admin, clients)
	checkRSS(t, samples, duration)
}

const (
	loadClients    = 64
	loadStaticRows = 200_000
	loadGroups     = 97
	loadEpochs     = 50 // about half of a 60 s load on 2 cores
)

// loadDuration reads MALLARD_LOAD_SECONDS.
func loadDuration(t *testing.T) time.Duration {
	s := os.Getenv("MALLARD_LOAD_SECONDS")
	if s == "" {
		if testing.Short() {
			return 10 * time.Second
		}
		return 60 * time.Second
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("MALLARD_LOAD_SECONDS=%q: want a whole number of seconds, at least 1", s)
	}
	return time.Duration(n) * time.Second
}

func setupLoad(t *testing.T, conn *pgx.Conn) {
	execAll(t, conn,
		"CREATE TABLE load_rows (id BIGINT PRIMARY KEY, client INTEGER NOT NULL, v DOUBLE NOT NULL, note VARCHAR NOT NULL, kind VARCHAR NOT NULL)",
		fmt.Sprintf("CREATE TABLE load_static AS SELECT i AS id, CAST(i %% %d AS INTEGER) AS g, i * 0.25 AS x FROM range(%d) t(i)", loadGroups, loadStaticRows),
	)
	execAll(t, conn, testserver.Unemployment(t)...)
}

// Every value of a load row derives from its id, so that checking a row
// needs no copy of what was written. The id carries the client in its high
// half, which gives every client a key range of its own.
func loadID(client int, seq int64) int64 { return int64(client+1)<<32 | seq }
func loadValue(id int64) float64         { return float64(id&0xffffffff)*0.5 + float64(id>>32) }

// loadNote holds a tab, a backslash, quotes and a non-ASCII letter, which
// COPY's text format must escape and the spool file must carry.
func loadNote(id int64) string { return fmt.Sprintf("n%d\t\\ \"é\" '", id) }

// copyText escapes s for COPY's text format.
var copyText = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

// The operations a load client chooses from, with their weights.
const (
	opReadStatic = iota // aggregate over a table nobody writes; exact result known
	opReadOwn           // count and sum of the client's own rows; exact result known
	opReadAll           // aggregate over the table everyone writes
	opCatalog           // what a BI tool sends: pg_class, information_schema
	opInsert            // one parameterised INSERT, autocommit
	opCopy              // one COPY FROM STDIN batch, autocommit
	opTx                // BEGIN, inserts (and sometimes a COPY), a read, COMMIT or ROLLBACK
	numOps
)

var (
	opNames   = [numOps]string{"read static", "read own", "read all", "catalog", "insert", "copy", "transaction"}
	opWeights = [numOps]int{10, 10, 5, 10, 35, 10, 20}
)

const insertSQL = "INSERT INTO load_rows (id, client, v, note, kind) VALUES ($1, $2, $3, $4, $5)"

// loadRow is a row a client knows to be committed.
type loadRow struct {
	id   int64
	kind string
}

// loadClient is one session of the load. Only its own goroutine touches it
// until run returns.
type loadClient struct {
	n          int
	conn       *pgx.Conn
	rng        *rand.Rand
	seq        int64
	committed  []loadRow // in id order, since seq only grows
	sum        float64   // of v over committed
	rolledBack map[int64]bool
	ops        [numOps]int
	busy       [numOps]time.Duration
	statements int
	copied     int // rows committed through COPY
	errs       []string
	tainted    bool // an operation failed, so its rows are of unknown fate
}

func newLoadClient(ctx context.Context, t *testing.T, p *mallardProcess, n int) *loadClient {
	cfg, err := pgx.ParseConfig(connString(p.addr))
	if err != nil {
		t.Fatal(err)
	}
	if n%4 == 3 { // some sessions use unnamed statements, the rest the statement cache
		cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("client %d: %v", n, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return &loadClient{n: n, conn: conn, rng: rand.New(rand.NewSource(int64(n))), rolledBack: map[int64]bool{}}
}

// run performs operations until end, stopping at the first error: after
// one, whether its rows were committed is unknown.
func (c *loadClient) run(ctx context.Context, end time.Time) {
	total := 0
	for _, w := range opWeights {
		total += w
	}
	for time.Now().Before(end) {
		op, r := 0, c.rng.Intn(total)
		for r >= opWeights[op] {
			r -= opWeights[op]
			op++
		}
		began := time.Now()
		err := c.do(ctx, op)
		c.busy[op] += time.Since(began)
		if err != nil {
			c.tainted = true
			c.errs = append(c.errs, fmt.Sprintf("client %d, %s: SQLSTATE %q: %v", c.n, opNames[op], sqlState(err), err))
			return
		}
		c.ops[op]++
	}
}

func (c *loadClient) do(ctx context.Context, op int) error {
	switch op {
	case opReadStatic:
		return c.readStatic(ctx)
	case opReadOwn:
		return c.readOwn(ctx, c.conn, len(c.committed), c.sum)
	case opReadAll:
		return c.readAll(ctx)
	case opCatalog:
		return c.catalog(ctx)
	case opInsert:
		id := c.nextID()
		if err := c.insert(ctx, c.conn, id, "insert"); err != nil {
			return err
		}
		c.commit([]int64{id}, "insert")
		return nil
	case opCopy:
		ids := c.nextIDs(50 + c.rng.Intn(250))
		if err := c.copy(ctx, c.conn, ids, "copy"); err != nil {
			return err
		}
		c.commit(ids, "copy")
		c.copied += len(ids)
		return nil
	default:
		return c.transaction(ctx)
	}
}

func (c *loadClient) nextID() int64 {
	c.seq++
	return loadID(c.n, c.seq)
}

func (c *loadClient) nextIDs(n int) []int64 {
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = c.nextID()
	}
	return ids
}

func (c *loadClient) commit(ids []int64, kind string) {
	for _, id := range ids {
		c.committed = append(c.committed, loadRow{id, kind})
		c.sum += loadValue(id)
	}
}

// querier is what a client runs statements on: its connection or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func (c *loadClient) insert(ctx context.Context, q querier, id int64, kind string) error {
	c.statements++
	tag, err := q.Exec(ctx, insertSQL, id, c.n, loadValue(id), loadNote(id), kind)
	if err == nil && tag.RowsAffected() != 1 {
		err = fmt.Errorf("INSERT reported %q", tag)
	}
	return err
}

func (c *loadClient) copy(ctx context.Context, conn *pgx.Conn, ids []int64, kind string) error {
	var buf bytes.Buffer
	for _, id := range ids {
		fmt.Fprintf(&buf, "%d\t%d\t%s\t%s\t%s\n", id, c.n, strconv.FormatFloat(loadValue(id), 'g', -1, 64), copyText.Replace(loadNote(id)), kind)
	}
	c.statements++
	tag, err := conn.PgConn().CopyFrom(ctx, &buf, "COPY load_rows (id, client, v, note, kind) FROM STDIN")
	if err == nil && tag.RowsAffected() != int64(len(ids)) {
		err = fmt.Errorf("COPY of %d rows reported %q", len(ids), tag)
	}
	return err
}

func (c *loadClient) readStatic(ctx context.Context) error {
	g := c.rng.Intn(loadGroups)
	var n int64
	var sum float64
	c.statements++
	if err := c.conn.QueryRow(ctx, "SELECT count(*), sum(x) FROM load_static WHERE g = $1", g).Scan(&n, &sum); err != nil {
		return err
	}
	wantN, wantSum := staticGroup(g)
	if n != wantN || sum != wantSum {
		return fmt.Errorf("group %d of load_static: count %d sum %v, want %d and %v", g, n, sum, wantN, wantSum)
	}
	return nil
}

// staticGroup is the count and sum of x over group g of load_static.
func staticGroup(g int) (int64, float64) {
	var n int64
	var sum float64
	for i := g; i < loadStaticRows; i += loadGroups {
		n++
		sum += float64(i) * 0.25
	}
	return n, sum
}

// readOwn checks that the client sees exactly its committed rows (and, in
// a transaction, its pending ones): nobody else writes its key range.
func (c *loadClient) readOwn(ctx context.Context, q querier, wantN int, wantSum float64) error {
	var n int
	var sum float64
	c.statements++
	if err := q.QueryRow(ctx, "SELECT count(*), coalesce(sum(v), 0) FROM load_rows WHERE client = $1", c.n).Scan(&n, &sum); err != nil {
		return err
	}
	if n != wantN || sum != wantSum {
		return fmt.Errorf("client %d sees %d rows summing to %v, want %d summing to %v", c.n, n, sum, wantN, wantSum)
	}
	return nil
}

func (c *loadClient) readAll(ctx context.Context) error {
	c.statements++
	rows, err := c.conn.Query(ctx, "SELECT kind, count(*) FROM load_rows GROUP BY kind ORDER BY kind")
	if err != nil {
		return err
	}
	total := 0
	var kind string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&kind, &n}, func() error {
		if kind != "copy" && kind != "insert" && kind != "tx" {
			return fmt.Errorf("unknown kind %q", kind)
		}
		total += n
		return nil
	})
	if err == nil && total < len(c.committed) {
		err = fmt.Errorf("the table holds %d rows, fewer than this client's %d", total, len(c.committed))
	}
	return err
}

// catalogQueries are introspection statements BI tools send (see
// sqlfront/testdata/bi), with a value their result must contain.
var catalogQueries = []struct {
	sql, want string
	args      []any
}{
	{`SELECT n.nspname AS "schema", c.relname AS "name",
	       CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'v' THEN 'VIEW' ELSE NULL END AS "type",
	       d.description AS "description"
	  FROM pg_catalog.pg_class AS c
	 INNER JOIN pg_catalog.pg_namespace AS n ON c.relnamespace = n.oid
	  LEFT JOIN pg_catalog.pg_description AS d ON (c.oid = d.objoid) AND (d.objsubid = 0) AND (d.classoid = 'pg_class'::regclass)
	 WHERE (n.nspname !~ '^pg_') AND (n.nspname <> 'information_schema') AND c.relkind IN ('r', 'p', 'v', 'f', 'm')
	 ORDER BY "type", "schema", "name"`, "load_rows", nil},
	{`SELECT table_schema, table_name, table_type FROM information_schema.tables
	   WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_schema, table_name`, "load_static", nil},
	{`SELECT column_name, data_type, is_nullable FROM information_schema.columns
	   WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`, "note", []any{"load_rows"}},
	{`SELECT ns.nspname FROM pg_catalog.pg_namespace ns WHERE ns.nspname <> 'pg_toast' ORDER BY 1`, "mlops", nil},
	{`SELECT current_setting('server_version_num'), version()`, "", nil},
}

func (c *loadClient) catalog(ctx context.Context) error {
	q := catalogQueries[c.rng.Intn(len(catalogQueries))]
	c.statements++
	rows, err := c.conn.Query(ctx, q.sql, q.args...)
	if err != nil {
		return err
	}
	found := q.want == ""
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return err
		}
		for _, v := range vals {
			found = found || v == q.want
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%q not in the result of %s", q.want, strings.Join(strings.Fields(q.sql), " "))
	}
	return nil
}

// transaction inserts a few rows, sometimes COPYs a batch as well, checks
// that it reads its own uncommitted rows, and commits or (one time in
// three) rolls back.
func (c *loadClient) transaction(ctx context.Context) error {
	c.statements++
	tx, err := c.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background()) // a no-op once committed or rolled back
	ids := c.nextIDs(1 + c.rng.Intn(8))
	for _, id := range ids {
		if err := c.insert(ctx, tx, id, "tx"); err != nil {
			return err
		}
	}
	if c.rng.Intn(4) == 0 {
		more := c.nextIDs(20 + c.rng.Intn(80))
		if err := c.copy(ctx, c.conn, more, "tx"); err != nil {
			return err
		}
		ids = append(ids, more...)
	}
	pendingSum := c.sum
	for _, id := range ids {
		pendingSum += loadValue(id)
	}
	if err := c.readOwn(ctx, tx, len(c.committed)+len(ids), pendingSum); err != nil {
		return fmt.Errorf("inside the transaction: %w", err)
	}
	c.statements++
	if c.rng.Intn(3) == 0 {
		if err := tx.Rollback(ctx); err != nil {
			return err
		}
		for _, id := range ids {
			c.rolledBack[id] = true
		}
		return nil
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	c.commit(ids, "tx")
	return nil
}

// loadTraining is the one training run of the load.
type loadTraining struct {
	done    chan struct{}
	epochs  []int64
	elapsed time.Duration
	err     error
}

func startLoadTraining(ctx context.Context, t *testing.T, p *mallardProcess) *loadTraining {
	conn := p.dial(t)
	tr := &loadTraining{done: make(chan struct{})}
	go func() {
		defer close(tr.done)
		defer conn.Close(context.Background())
		began := time.Now()
		defer func() { tr.elapsed = time.Since(began) }()
		rows, err := conn.Query(ctx, fmt.Sprintf("SELECT epoch, train_mse, test_mse FROM train_gat('uw', model := 'load_gat', "+
			"epochs := %d, hidden := [4, 4], scaler := 'u', seed := 1, patience := 0)", loadEpochs))
		if err != nil {
			tr.err = err
			return
		}
		var epoch int64
		var train, test float64
		_, tr.err = pgx.ForEachRow(rows, []any{&epoch, &train, &test}, func() error {
			if math.IsNaN(train) || math.IsNaN(test) || train <= 0 || test <= 0 {
				return fmt.Errorf("epoch %d: train_mse %v, test_mse %v", epoch, train, test)
			}
			tr.epochs = append(tr.epochs, epoch)
			return nil
		})
	}()
	return tr
}

// check waits for the run to end and asserts that it trained every epoch
// and left a ready, forecasting model behind.
func (tr *loadTraining) check(ctx context.Context, t *testing.T, conn *pgx.Conn) {
	t.Helper()
	select {
	case <-tr.done:
	case <-ctx.Done():
		t.Fatal("the training run did not end")
	}
	t.Logf("train_gat: %d epochs in %v", len(tr.epochs), tr.elapsed.Round(time.Millisecond))
	if tr.err != nil || len(tr.epochs) != loadEpochs {
		t.Errorf("train_gat: %d epochs (%v), want %d", len(tr.epochs), tr.err, loadEpochs)
		return
	}
	var run, model string
	if err := conn.QueryRow(ctx, `SELECT r.status, m.status FROM mlops.training_runs r
		JOIN mlops.models m ON m.name = r.model AND m.version = r.version WHERE r.model = 'load_gat'`).Scan(&run, &model); err != nil {
		t.Fatal(err)
	}
	if run != "succeeded" || model != "ready" {
		t.Errorf("load_gat: run %s, model %s; want succeeded and ready", run, model)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM forecast('load_gat', steps := 2)").Scan(&n); err != nil || n != 28 {
		t.Errorf("forecast(load_gat): %d rows (%v), want 28", n, err)
	}
}

// verifyLoadRows reads the whole table in id order and compares it with
// what the clients committed: every committed row is there with its
// values, and no other row is, in particular no rolled-back one. Clients
// that hit an error are skipped, since the fate of their last rows is
// unknown (the error itself has failed the test).
func verifyLoadRows(ctx context.Context, t *testing.T, conn *pgx.Conn, clients []*loadClient) {
	t.Helper()
	var want []loadRow
	rolledBack := map[int64]bool{}
	for _, c := range clients {
		if !c.tainted {
			want = append(want, c.committed...)
		}
		for id := range c.rolledBack {
			rolledBack[id] = true
		}
	}
	rows, err := conn.Query(ctx, "SELECT id, client, v, note, kind FROM load_rows ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var (
		id         int64
		client     int
		v          float64
		note, kind string
		i, bad     int
	)
	report := func(format string, args ...any) {
		if bad++; bad <= 10 {
			t.Errorf(format, args...)
		}
	}
	_, err = pgx.ForEachRow(rows, []any{&id, &client, &v, &note, &kind}, func() error {
		if c := int(id>>32) - 1; c >= 0 && c < len(clients) && clients[c].tainted {
			return nil
		}
		for i < len(want) && want[i].id < id {
			report("committed row %d (%s, client %d) is missing", want[i].id, want[i].kind, want[i].id>>32-1)
			i++
		}
		switch {
		case rolledBack[id]:
			report("rolled-back row %d (client %d) is present", id, client)
			return nil
		case i == len(want) || want[i].id != id:
			report("row %d (%s, client %d) was never committed", id, kind, client)
			return nil
		}
		if client != int(id>>32)-1 || v != loadValue(id) || note != loadNote(id) || kind != want[i].kind {
			report("row %d is (%d, %v, %q, %s), want (%d, %v, %q, %s)", id, client, v, note, kind,
				id>>32-1, loadValue(id), loadNote(id), want[i].kind)
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for ; i < len(want); i++ {
		report("committed row %d (%s) is missing", want[i].id, want[i].kind)
	}
	if bad > 10 {
		t.Errorf("... %d wrong rows in all", bad)
	}
	t.Logf("verified %d committed rows; %d rolled-back rows absent", len(want), len(rolledBack))
}

func reportLoad(t *testing.T, clients []*loadClient, elapsed time.Duration) {
	var ops [numOps]int
	var busy [numOps]time.Duration
	statements, rows, copied, rolledBack := 0, 0, 0, 0
	for _, c := range clients {
		for i, n := range c.ops {
			ops[i] += n
			busy[i] += c.busy[i]
		}
		statements += c.statements
		rows += len(c.committed)
		copied += c.copied
		rolledBack += len(c.rolledBack)
	}
	var mix []string
	for i, n := range ops {
		mix = append(mix, fmt.Sprintf("%s %d (mean %v)", opNames[i], n, (busy[i]/time.Duration(max(n, 1))).Round(time.Millisecond)))
	}
	t.Logf("%d clients for %v: %d statements, %.0f statements/s; operations: %s", len(clients), elapsed.Round(time.Millisecond),
		statements, float64(statements)/elapsed.Seconds(), strings.Join(mix, ", "))
	t.Logf("rows committed %d (%d by autocommit COPY), rolled back %d; %.0f committed rows/s",
		rows, copied, rolledBack, float64(rows)/elapsed.Seconds())
}

// reportLoadMetrics logs what the server's /metrics said after the load.
func reportLoadMetrics(t *testing.T, httpAddr string) {
	m := scrape(t, httpAddr, "", "")
	var parts []string
	for _, c := range []struct{ name, label, value string }{
		{"mallard_sessions_total", "", ""}, {"mallard_statements_total", "command", "SELECT"},
		{"mallard_statements_total", "command", "INSERT"}, {"mallard_statements_total", "command", "COPY"},
		{"mallard_copy_rows_total", "", ""}, {"mallard_statement_duration_seconds", "", ""},
		{"mallard_training_runs", "status", "succeeded"}, {"mallard_training_epochs", "", ""},
		{"mallard_sent_bytes_total", "", ""}, {"mallard_duckdb_memory_bytes", "tag", "BASE_TABLE"},
	} {
		var labels []string
		if c.label != "" {
			labels = []string{c.label, c.value}
		}
		v, _ := value(m, c.name, labels...)
		parts = append(parts, fmt.Sprintf("%s%v %.0f", c.name, labels, v))
	}
	if f := m["mallard_statement_errors_total"]; f != nil {
		for _, e := range f.GetMetric() {
			parts = append(parts, fmt.Sprintf("errors{class=%s} %.0f", e.GetLabel()[0].GetValue(), e.GetCounter().GetValue()))
		}
	}
	t.Logf("scraped /metrics: %s", strings.Join(parts, ", "))
	if v, ok := value(m, "mallard_statements_total", "command", "SELECT"); !ok || v == 0 {
		t.Errorf("/metrics counted no SELECT after the load")
	}
}

// rssSample is the server's memory at one moment of the load.
type rssSample struct {
	at     time.Duration
	rss    int64 // resident set size, from /proc
	rows   int64 // in load_rows
	duckdb int64 // what DuckDB's memory accounting reports (duckdb_memory()); reported only
	err    error
}

type rssSampler struct {
	quit    chan struct{}
	done    chan struct{}
	samples []rssSample
}

// startRSSSampler samples the server once a second until stop.
func startRSSSampler(p *mallardProcess, conn *pgx.Conn) *rssSampler {
	s := &rssSampler{quit: make(chan struct{}), done: make(chan struct{})}
	start := time.Now()
	sample := func() {
		r := rssSample{at: time.Since(start)}
		r.rss, r.err = p.rssBytes()
		if r.err == nil {
			r.err = conn.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM load_rows),
				(SELECT CAST(sum(memory_usage_bytes) AS BIGINT) FROM duckdb_memory())`).Scan(&r.rows, &r.duckdb)
		}
		s.samples = append(s.samples, r)
	}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		sample()
		for {
			select {
			case <-s.quit:
				sample()
				return
			case <-tick.C:
				sample()
			}
		}
	}()
	return s
}

func (s *rssSampler) stop() []rssSample {
	close(s.quit)
	<-s.done
	return s.samples
}

// How much the server's RSS may grow after the warm-up. It does grow
// legitimately: the table and its primary-key index grow all through the
// load and DuckDB keeps them in memory (the default memory_limit is 80% of
// RAM), and one-off costs may land after the warm-up (DuckDB's automatic
// checkpoints once the WAL passes 16 MiB, the end of the training run).
// Measured on 2 cores: the RSS climbs for about 20 s (sessions' prepared
// statements, the first checkpoints, the training run) and then follows
// the rows. In five 60 s loads its highest value in the last 10 s was
// 7-57 MiB above its highest in the 5 s before 20 s, with 110k-150k rows
// (about 50 bytes of column data each, plus the index) written in between;
// a 150 s load grew 84 MiB after 20 s, with 380k rows. rssFixedSlack (over twice the largest
// growth seen) and rssPerRow (about five times a row's data) keep the check
// from flaking; memory that grows per statement instead (a leaked prepared
// statement, result buffer or session state) of about 10 KiB a statement,
// over 100 MiB in the 30-odd seconds after the warm-up at 300 statements/s,
// would exceed it.
const (
	rssPerRow     = 256
	rssFixedSlack = 128 << 20
)

// checkRSS reports the RSS at the start, the peak and the end of the load,
// and, for a load of 20 s or more, asserts that the highest RSS of the last
// 10 s (a quarter of a shorter load) exceeds the highest RSS of the 5 s
// that end a warm-up of 20 s (a third of a shorter load) by no more than
// rssFixedSlack plus rssPerRow per row written in between.
func checkRSS(t *testing.T, samples []rssSample, duration time.Duration) {
	t.Helper()
	var ok []rssSample
	for _, s := range samples {
		if s.err != nil {
			t.Logf("RSS sample at %v: %v", s.at.Round(time.Second), s.err)
			continue
		}
		ok = append(ok, s)
	}
	if len(ok) < 4 {
		t.Logf("RSS: only %d samples, nothing to check", len(ok))
		return
	}
	warmUp, window := min(20*time.Second, duration/3), min(10*time.Second, duration/4)
	peak := slices.MaxFunc(ok, func(a, b rssSample) int { return int(a.rss - b.rss) })
	warm := ok[0] // the highest RSS in the window that ends the warm-up
	for _, s := range ok {
		if s.at <= warmUp && s.at >= warmUp-window/2 && s.rss > warm.rss {
			warm = s
		}
	}
	last := ok[len(ok)-1]
	lastPeak := last
	for _, s := range ok {
		if s.at >= last.at-window && s.rss > lastPeak.rss {
			lastPeak = s
		}
	}
	t.Logf("RSS: start %s, after warm-up (%v) %s, peak %s (at %v), end %s",
		mib(ok[0].rss), warm.at.Round(time.Second), mib(warm.rss), mib(peak.rss), peak.at.Round(time.Second), mib(last.rss))
	var series []string
	for i, s := range ok {
		if i%5 == 0 || i == len(ok)-1 {
			series = append(series, fmt.Sprintf("%v %.0f/%.0f/%dk", s.at.Round(time.Second), float64(s.rss)/(1<<20), float64(s.duckdb)/(1<<20), s.rows/1000))
		}
	}
	t.Logf("RSS MiB / duckdb_memory() MiB / rows, every 5 s: %s", strings.Join(series, ", "))
	if duration < 20*time.Second {
		t.Logf("RSS not checked: a load shorter than 20 s has no steady state to compare with its warm-up")
		return
	}
	allowed := warm.rss + rssFixedSlack + rssPerRow*max(0, lastPeak.rows-warm.rows)
	if lastPeak.rss > allowed {
		t.Errorf("RSS %s at %v is more than %s: the RSS after warm-up (%s) + %s + %d bytes for each of the %d rows written since; memory is not stable",
			mib(lastPeak.rss), lastPeak.at.Round(time.Second), mib(allowed), mib(warm.rss), mib(rssFixedSlack), rssPerRow, lastPeak.rows-warm.rows)
	}
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }
