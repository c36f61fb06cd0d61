//go:build duckdb_arrow

package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
)

var (
	faultCount = flag.Int("faults", 4, "TestFaultSuite: the kills to inject (scripts/fault-suite.sh runs 200)")
	faultSeed  = flag.Uint64("fault-seed", 1, "TestFaultSuite: the seed of the workloads' order and the kills' instants")
)

// The fault suite kills the real server with SIGKILL at random instants
// while clients write, train and back up, restarts it on the same files
// and checks after each restart that:
//   - every commit a client saw acknowledged is there, and nothing a client
//     rolled back; a commit in flight at the kill is all there or all gone;
//   - no training run is left training or queued, and every deployed
//     model version forecasts;
//   - every backup at its final name opens and holds every row committed
//     before it was asked for, and no backup temporary is left;
//   - SQL still cannot reach the database's own files (42501).
// `go test -run TestFaultSuite` injects -faults kills (4 in make test, one
// per workload); scripts/fault-suite.sh runs 200 and prints the counts.

// faultLedger is what the clients of the suite saw acknowledged, by the
// ids of table f's rows.
type faultLedger struct {
	mu      sync.Mutex
	acked   map[int64]bool
	doubt   [][2]int64     // in flight at a kill: all rows of a range there, or none
	backups map[string]int // final name -> rows acknowledged before it was asked for
	commits int
}

func (l *faultLedger) ack(lo, hi int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id := lo; id < hi; id++ {
		l.acked[id] = true
	}
	l.commits++
}

func (l *faultLedger) inDoubt(lo, hi int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.doubt = append(l.doubt, [2]int64{lo, hi})
}

func (l *faultLedger) rows() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acked)
}

// faultCounts are the suite's report.
type faultCounts struct {
	faults, commits, lost, backups, escapes int
	byWorkload                              map[string]int
}

func TestFaultSuite(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "f.duckdb")
	rng := rand.New(rand.NewPCG(*faultSeed, 7))
	p := startMallard(t, dbPath)
	conn := p.connect(t)
	execAll(t, conn, testserver.Unemployment(t)...)
	execAll(t, conn, "CREATE TABLE f (id BIGINT PRIMARY KEY, v DOUBLE, s VARCHAR, ts TIMESTAMP, b BOOLEAN)")
	ledger := &faultLedger{acked: map[int64]bool{}, backups: map[string]int{}}
	counts := faultCounts{byWorkload: map[string]int{}}
	workloads := []string{"copy", "transaction", "training", "backup"}
	next := int64(1)
	for i := range *faultCount {
		kind := workloads[i%len(workloads)]
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { faultWorkload(ctx, p.addr, kind, i, &next, ledger) })
		wg.Go(func() { faultWorkload(ctx, p.addr, "copy", i, &next, ledger) }) // writes go on beside each
		time.Sleep(time.Duration(100+rng.IntN(1500)) * time.Millisecond)
		p.kill(t)
		stop()
		wg.Wait()
		counts.faults++
		counts.byWorkload[kind]++
		p = startMallard(t, dbPath)
		conn = p.connect(t)
		counts.lost += checkFaultLedger(t, conn, ledger)
		counts.escapes += checkEscapes(t, conn, dbPath)
		checkRegistry(t, conn)
		counts.backups += checkBackups(t, filepath.Join(dir, "backups"), ledger)
		if t.Failed() {
			t.Fatalf("after fault %d (%s, seed %d)", i+1, kind, *faultSeed)
		}
		if (i+1)%20 == 0 { // a long run reports as it goes
			fmt.Printf("fault suite: %d faults so far, %d commits checked, %d lost, %d backups checked\n", i+1, ledger.commits, counts.lost, counts.backups)
		}
	}
	counts.commits = ledger.commits
	fmt.Printf("fault suite: %d faults injected (%s), %d commits checked, %d lost, %d backups checked, %d escapes tried and refused (seed %d)\n",
		counts.faults, faultKinds(counts.byWorkload, workloads), counts.commits, counts.lost, counts.backups, counts.escapes, *faultSeed)
}

func faultKinds(by map[string]int, order []string) string {
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s %d", k, by[k]))
	}
	return strings.Join(parts, ", ")
}

// faultWorkload writes until the server dies or ctx ends, recording in the
// ledger what the server acknowledged and what was in flight.
func faultWorkload(ctx context.Context, addr, kind string, round int, next *int64, l *faultLedger) {
	conn, err := pgx.Connect(ctx, connString(addr))
	if err != nil {
		return // the server died before the workload connected
	}
	defer conn.Close(context.Background())
	claim := func(n int64) (int64, int64) {
		l.mu.Lock()
		defer l.mu.Unlock()
		lo := *next
		*next += n
		return lo, lo + n
	}
	for k := 0; ctx.Err() == nil; k++ {
		var err error
		switch kind {
		case "copy":
			lo, hi := claim(2_000)
			var tag pgconn.CommandTag
			tag, err = conn.PgConn().CopyFrom(ctx, newCopyStream(lo, hi), "COPY f FROM STDIN")
			if err == nil && tag.RowsAffected() == hi-lo {
				l.ack(lo, hi)
			} else {
				l.inDoubt(lo, hi)
			}
		case "transaction":
			err = faultTransaction(ctx, conn, claim, l, k%4 == 3)
		case "training":
			_, err = conn.Exec(ctx, fmt.Sprintf("SELECT count(*) FROM train_gat('uw', model := 'fault%d', epochs := %d, hidden := [4, 4], "+
				"checkpoint_every := 2, patience := 0, scaler := 'u')", round, 3+k*50))
		case "backup":
			name := fmt.Sprintf("b%d-%d", round, k)
			rows := l.rows()
			if _, err = conn.Exec(ctx, "SELECT mallard.backup('"+name+"')"); err == nil {
				l.mu.Lock()
				l.backups[name+".duckdb"] = rows
				l.mu.Unlock()
			}
		}
		if err != nil {
			return
		}
	}
}

// faultTransaction commits (or, when rollback, rolls back) two inserts in
// one transaction; only an acknowledged COMMIT counts.
func faultTransaction(ctx context.Context, conn *pgx.Conn, claim func(int64) (int64, int64), l *faultLedger, rollback bool) error {
	lo, mid := claim(500)
	_, hi := claim(500)
	for _, q := range []string{"BEGIN", faultInsertSQL(lo, mid), faultInsertSQL(mid, hi)} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return err // never committed: its rows must be absent
		}
	}
	end := "COMMIT"
	if rollback {
		end = "ROLLBACK"
	}
	_, err := conn.Exec(ctx, end)
	switch {
	case err == nil && !rollback:
		l.ack(lo, hi)
	case err != nil && !rollback:
		l.inDoubt(lo, hi)
	}
	return err
}

// checkFaultLedger compares table f with the ledger and returns how many
// acknowledged rows are missing.
func checkFaultLedger(t *testing.T, conn *pgx.Conn, l *faultLedger) int {
	t.Helper()
	ids := map[int64]bool{}
	rows, err := conn.Query(context.Background(), "SELECT id FROM f")
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	if _, err := pgx.ForEachRow(rows, []any{&id}, func() error { ids[id] = true; return nil }); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	lost := 0
	for id := range l.acked {
		if !ids[id] {
			lost++
		}
	}
	inDoubt := map[int64]bool{}
	for _, r := range l.doubt {
		n := 0
		for id := r[0]; id < r[1]; id++ {
			inDoubt[id] = true
			if ids[id] {
				n++
			}
		}
		if n != 0 && int64(n) != r[1]-r[0] {
			t.Errorf("a commit in flight at the kill is half there: %d of rows %d..%d", n, r[0], r[1]-1)
		}
		if n != 0 { // it committed after all: from now on it must stay
			for id := r[0]; id < r[1]; id++ {
				l.acked[id] = true
			}
		}
	}
	l.doubt = nil
	strangers := 0
	for id := range ids {
		if !l.acked[id] && !inDoubt[id] {
			strangers++
		}
	}
	if lost > 0 || strangers > 0 {
		t.Errorf("%d acknowledged rows lost, %d rows present that were rolled back or never committed", lost, strangers)
	}
	return lost
}

// checkRegistry checks that no run is left training or queued and that
// every deployed version forecasts.
func checkRegistry(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	var stuck int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM mlops.training_runs WHERE status IN ('training', 'queued')").Scan(&stuck); err != nil || stuck != 0 {
		t.Errorf("%d runs left training or queued after the restart (%v)", stuck, err)
	}
	rows, err := conn.Query(ctx, "SELECT DISTINCT name FROM mlops.models WHERE deployed")
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM forecast('"+name+"')").Scan(&n); err != nil || n == 0 {
			t.Errorf("deployed model %s does not forecast after the restart: %d rows (%v)", name, n, err)
		}
	}
}

// checkBackups opens every backup at a final name in dir and checks it
// holds the rows acknowledged before it was asked for; no temporary may
// be left. It returns the backups checked.
func checkBackups(t *testing.T, dir string, l *faultLedger) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".duckdb") || strings.HasPrefix(name, ".") {
			if !strings.HasSuffix(name, ".wal") {
				t.Errorf("backup directory holds %s after the restart: a temporary left behind", name)
			}
			continue
		}
		db, err := sql.Open("duckdb", filepath.Join(dir, name)+"?access_mode=READ_ONLY")
		if err != nil {
			t.Fatal(err)
		}
		var n int
		err = db.QueryRow("SELECT count(*) FROM public.f").Scan(&n) // sessions keep their tables in schema public
		db.Close()
		l.mu.Lock()
		want, acked := l.backups[name]
		l.mu.Unlock()
		switch {
		case err != nil:
			t.Errorf("backup %s at its final name does not open as a database with table f: %v", name, err)
		case acked && n < want:
			t.Errorf("backup %s holds %d rows of f, fewer than the %d acknowledged before it was asked for", name, n, want)
		}
		checked++
	}
	return checked
}

// checkEscapes tries SQL that would read or overwrite the database's own
// files and returns how many attempts were refused with 42501.
func checkEscapes(t *testing.T, conn *pgx.Conn, dbPath string) int {
	t.Helper()
	refused := 0
	for _, q := range []string{
		"COPY (SELECT 'garbage' AS g) TO '" + dbPath + "' (FORMAT csv, use_tmp_file false)",
		"COPY (SELECT 'garbage' AS g) TO '" + dbPath + ".wal' (FORMAT csv, use_tmp_file false)",
		"SELECT count(*) FROM read_blob('" + dbPath + "')",
		"SELECT count(*) FROM read_text('" + filepath.Dir(dbPath) + "/*.duckdb*')",
	} {
		_, err := conn.Exec(context.Background(), q)
		if sqlState(err) != "42501" {
			t.Errorf("%s: %v, want 42501", q, err)
			continue
		}
		refused++
	}
	return refused
}
