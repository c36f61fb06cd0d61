//go:build duckdb_arrow

package functions_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/storage"
)

// spillFiles counts this process's open files that rows are spilled to
// (mlops/classifier/spill.go, written by storage/prep/features.go): created and at once removed from their
// directory, they show in /proc/self/fd as "mallard-rows-... (deleted)".
func spillFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.Contains(target, "mallard-rows-") {
			n++
		}
	}
	return n
}

// TestClassifierRowsOutsideMemory trains on 3,000 images of 64 x 64
// values, 98 MB as doubles, under a memory limit of 100 MB, of which
// reservations may take 75 MB: the features are spilled to a file and
// read back a batch at a time, so the reservation is the model and a
// batch. (Holding the rows in memory, three times their size in doubles
// was reserved, 295 MB, and training failed with 53200.)
func TestClassifierRowsOutsideMemory(t *testing.T) {
	conn := connect(t, startServerWith(t, server.Config{DB: storage.Config{MemoryLimit: "100MB"}}),
		pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, `CREATE TABLE big AS SELECT CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS label,
		encode(CASE WHEN i % 2 = 0 THEN repeat('a', 2048) || repeat(' ', 2048) ELSE repeat(' ', 2048) || repeat('a', 2048) END) AS img FROM range(3000) r(i)`)
	epochs := trainRows(t, conn, "SELECT * FROM train_classifier('big', label := 'label', model := 'big', features := ['img'], "+
		"shape := [1, 64, 64], architecture := 'linear', epochs := 2, patience := 0)")
	if len(epochs) != 2 {
		t.Fatalf("%d epochs, want 2", len(epochs))
	}
	if n := spillFiles(t); n != 0 {
		t.Errorf("%d spill files open after training, want 0", n)
	}
	if acc := scanOne[float64](t, conn, "SELECT accuracy FROM evaluate('big') WHERE method = 'linear'"); acc != 1 {
		t.Errorf("test accuracy %v, want 1 (each class is one image)", acc)
	}
}

// TestClassifierSpillFileEnds checks that the file a run's rows are
// spilled to exists while it trains and is closed, its space freed,
// when the run fails, is canceled or finishes.
func TestClassifierSpillFileEnds(t *testing.T) {
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	loadPenguins(t, conn)
	// Failure after the rows are spilled: the last row's label is NULL.
	exec(t, conn, "CREATE TABLE late_null AS SELECT * FROM penguins UNION ALL SELECT NULL, 'Biscoe', 1, 2, 3, 4, 'male'")
	wantCode(t, errorCode(t, conn, "SELECT * FROM train_classifier('SELECT * FROM late_null', label := 'species', model := 'bad')"), "22004")
	if n := spillFiles(t); n != 0 {
		t.Errorf("after a failed read: %d spill files open, want 0", n)
	}
	done := startTraining(conn, context.Background(),
		"SELECT * FROM train_classifier('penguins', label := 'species', model := 'long', epochs := 100000, patience := 0)")
	waitFor(t, other, "SELECT count(*) >= 2 FROM mlops.training_metrics", true)
	if n := spillFiles(t); n != 1 {
		t.Errorf("while training: %d spill files open, want 1", n)
	}
	cancelRunOne(t, other, done)
	if n := spillFiles(t); n != 0 {
		t.Errorf("after cancel: %d spill files open, want 0", n)
	}
	trainRows(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'short', epochs := 2)")
	if n := spillFiles(t); n != 0 {
		t.Errorf("after training: %d spill files open, want 0", n)
	}
}
