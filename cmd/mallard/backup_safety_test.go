//go:build duckdb_arrow

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// bigRows is the size of the table the backups below copy: large enough
// (about 100 MB in DuckDB's file) that a backup is seen writing before it
// ends, whatever the machine's speed.
const bigRows = 3_000_000

// backupFixture fills the database behind conn with the table big and
// the committed rows of small, and returns the row count of big.
func backupFixture(t *testing.T, conn *pgx.Conn) int64 {
	t.Helper()
	execAll(t, conn,
		fmt.Sprintf("CREATE TABLE big AS SELECT i, md5(CAST(i AS VARCHAR)) AS s, random() AS r FROM range(%d) t(i)", bigRows),
		"CREATE TABLE small (id INT PRIMARY KEY)")
	for i := range 20 {
		if _, err := conn.Exec(context.Background(), "INSERT INTO small VALUES ($1)", i); err != nil {
			t.Fatal(err)
		}
	}
	return bigRows
}

// startBackup runs mallard.backup(file) on its own connection to p,
// which it closes; the channel gets the statement's error.
func startBackup(t *testing.T, p *mallardProcess, file string) (<-chan error, uint32) {
	t.Helper()
	conn := p.dial(t)
	done := make(chan error, 1)
	go func() {
		defer conn.Close(context.Background())
		_, err := conn.Exec(context.Background(), "SELECT mallard.backup($1)", file)
		done <- err
	}()
	return done, conn.PgConn().PID()
}

// waitWriting waits until a file in dir has grown past 4 MiB while the
// backup whose end done reports still runs, and fails the test if the
// backup ends first.
func waitWriting(t *testing.T, dir string, done <-chan error) {
	t.Helper()
	for {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.Size() > 4<<20 {
				return
			}
		}
		select {
		case err := <-done:
			t.Fatalf("the backup ended (%v) before a file in %s grew past 4 MiB", err, dir)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// dirEntries lists the names in dir.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// attachedUnder counts the databases the server behind conn has
// attached from files under dir.
func attachedUnder(t *testing.T, conn *pgx.Conn, dir string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM duckdb_databases() WHERE path LIKE $1", dir+"/%").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkCopy serves the backup file with a second server and checks it
// holds every row committed before the backup.
func checkCopy(t *testing.T, file string, big int64) {
	t.Helper()
	conn := startMallard(t, file).connect(t)
	var gotBig, gotSmall int64
	if err := conn.QueryRow(context.Background(), "SELECT (SELECT count(*) FROM big), (SELECT count(*) FROM small)").Scan(&gotBig, &gotSmall); err != nil {
		t.Fatal(err)
	}
	if gotBig != big || gotSmall != 20 {
		t.Errorf("the backup %s holds %d rows of big and %d of small, want %d and 20", file, gotBig, gotSmall, big)
	}
}

// retryBackup backs up to file again through conn, which must succeed.
func retryBackup(t *testing.T, conn *pgx.Conn, file string) {
	t.Helper()
	var got string
	if err := conn.QueryRow(context.Background(), "SELECT mallard.backup($1)", file).Scan(&got); err != nil || got != file {
		t.Fatalf("the retried backup to %s: %q (%v)", file, got, err)
	}
}

// TestBackupKilled kills the server with SIGKILL while mallard.backup
// writes: nothing is at the backup's name, the server started again
// removes the temporary, has nothing attached from the backup directory,
// and a retry to the same name writes a backup with every committed row.
func TestBackupKilled(t *testing.T) {
	dir := t.TempDir()
	out, db := filepath.Join(dir, "out"), filepath.Join(dir, "live.duckdb")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	server := startMallard(t, db, "--data-dir", out)
	big := backupFixture(t, server.connect(t))
	file := filepath.Join(out, "b.duckdb")
	done, _ := startBackup(t, server, file)
	waitWriting(t, out, done)
	server.kill(t)
	<-done
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed backup left %s behind (%v)", file, err)
	}

	conn := startMallard(t, db, "--data-dir", out).connect(t)
	if left := dirEntries(t, out); len(left) != 0 {
		t.Errorf("after the restart %s holds %v, want nothing", out, left)
	}
	if n := attachedUnder(t, conn, out); n != 0 {
		t.Errorf("%d databases attached from %s after the restart", n, out)
	}
	retryBackup(t, conn, file)
	checkCopy(t, file, big)
}

// TestBackupCanceled cancels mallard.backup with pg_cancel_backend while
// it writes: the statement fails with 57014, at once nothing is left in
// the backup directory and nothing attached from it, and a retry to the
// same name writes a backup with every committed row.
func TestBackupCanceled(t *testing.T) {
	dir := t.TempDir()
	out, db := filepath.Join(dir, "out"), filepath.Join(dir, "live.duckdb")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	server := startMallard(t, db, "--data-dir", out)
	conn := server.connect(t)
	big := backupFixture(t, conn)
	file := filepath.Join(out, "b.duckdb")
	done, pid := startBackup(t, server, file)
	waitWriting(t, out, done)
	if _, err := conn.Exec(context.Background(), "SELECT pg_cancel_backend($1)", int64(pid)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; sqlState(err) != "57014" {
		t.Fatalf("the canceled backup: %v, want SQLSTATE 57014", err)
	}
	if left := dirEntries(t, out); len(left) != 0 {
		t.Errorf("after the cancel %s holds %v, want nothing", out, left)
	}
	if n := attachedUnder(t, conn, out); n != 0 {
		t.Errorf("%d databases attached from %s after the cancel", n, out)
	}
	retryBackup(t, conn, file)
	checkCopy(t, file, big)
}

// TestBackupShutdown stops the server with SIGTERM and no grace while
// mallard.backup writes: the backup fails, the server exits 0 having
// removed the temporary, nothing is at the backup's name, and the server
// started again has nothing attached from the backup directory and backs
// up to the same name every committed row.
func TestBackupShutdown(t *testing.T) {
	dir := t.TempDir()
	out, db := filepath.Join(dir, "out"), filepath.Join(dir, "live.duckdb")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	server := startMallard(t, db, "--data-dir", out, "--shutdown-grace", "0")
	big := backupFixture(t, server.connect(t))
	file := filepath.Join(out, "b.duckdb")
	done, _ := startBackup(t, server, file)
	waitWriting(t, out, done)
	exitWithin(t, server.terminate(t), time.Minute)
	if err := <-done; err == nil {
		t.Error("the backup stopped by SIGTERM succeeded")
	}
	if left := dirEntries(t, out); len(left) != 0 {
		t.Errorf("after the shutdown %s holds %v, want nothing", out, left)
	}
	conn := startMallard(t, db, "--data-dir", out).connect(t)
	if n := attachedUnder(t, conn, out); n != 0 {
		t.Errorf("%d databases attached from %s after the restart", n, out)
	}
	retryBackup(t, conn, file)
	checkCopy(t, file, big)
}

// mountSmall mounts a tmpfs of size at dir until the test ends; the test
// fails if it cannot.
func mountSmall(t *testing.T, dir, size string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a %s tmpfs at %s: %v\n%s", size, dir, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v\n%s", dir, err, out)
		}
	})
}

// remount grows the tmpfs at dir to size.
func remount(t *testing.T, dir, size string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,size="+size, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v\n%s", dir, err, out)
	}
}

// isDiskFull reports whether err is 53100 saying the disk is full.
func isDiskFull(err error) bool {
	return sqlState(err) == "53100" && strings.Contains(err.Error(), "disk full")
}

// TestBackupDiskFull backs up into a 20 MB tmpfs, and COPYs a table to a
// file there: each fails with 53100 saying the disk is full, nothing is
// left at the backup's name or as a temporary, nothing stays attached,
// the data is intact, and once the disk has room a retry to the same
// name writes a backup with every committed row.
func TestBackupDiskFull(t *testing.T) {
	dir := t.TempDir()
	out, db := filepath.Join(dir, "out"), filepath.Join(dir, "live.duckdb")
	mountSmall(t, out, "20m")
	server := startMallard(t, db, "--data-dir", out)
	conn := server.connect(t)
	big := backupFixture(t, conn)
	file := filepath.Join(out, "b.duckdb")
	if _, err := conn.Exec(context.Background(), "SELECT mallard.backup($1)", file); !isDiskFull(err) {
		t.Errorf("a backup to a full disk: %v, want SQLSTATE 53100 saying the disk is full", err)
	}
	if left := dirEntries(t, out); len(left) != 0 {
		t.Errorf("after the failed backup %s holds %v, want nothing", out, left)
	}
	if n := attachedUnder(t, conn, out); n != 0 {
		t.Errorf("%d databases attached from %s after the failed backup", n, out)
	}
	if _, err := conn.Exec(context.Background(), "COPY big TO '"+filepath.Join(out, "big.csv")+"'"); !isDiskFull(err) {
		t.Errorf("COPY TO a full disk: %v, want SQLSTATE 53100 saying the disk is full", err)
	}
	os.Remove(filepath.Join(out, "big.csv"))
	var n int64
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM big").Scan(&n); err != nil || n != big {
		t.Fatalf("big after the full disk: %d rows (%v), want %d", n, err, big)
	}
	remount(t, out, "400m")
	retryBackup(t, conn, file)
	checkCopy(t, file, big)
}

// TestDatabaseDiskFull fills the disk of the database itself with
// committed inserts: the insert that finds it full fails with 53100
// saying so. DuckDB then invalidates the database until it is opened
// again, which needs room; once the disk has room, a new session sees
// every row committed before, and the server stops cleanly and starts
// again with them all.
func TestDatabaseDiskFull(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "small")
	mountSmall(t, dir, "20m")
	db := filepath.Join(dir, "live.duckdb")
	server := startMallard(t, db)
	conn := server.connect(t)
	execAll(t, conn, "CREATE TABLE t (i BIGINT, s VARCHAR)")
	var committed int64
	var err error
	for committed < 1_000_000_000 {
		_, err = conn.Exec(ctx, "INSERT INTO t SELECT i, md5(CAST(i AS VARCHAR)) FROM range($1::BIGINT, $1::BIGINT + 50000) r(i)", committed)
		if err != nil {
			break
		}
		committed += 50000
	}
	if !isDiskFull(err) {
		t.Fatalf("an insert into a database on a full disk: %v, want SQLSTATE 53100 saying the disk is full", err)
	}
	remount(t, dir, "400m")
	// The first statement after the fatal error reopens the database and
	// ends its session; a new session sees the reopened database.
	var n int64
	for try := 0; ; try++ {
		var c *pgx.Conn
		if c, err = pgx.Connect(ctx, connString(server.addr)); err == nil {
			err = c.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n)
			c.Close(ctx)
		}
		if err == nil || try == 2 {
			break
		}
	}
	if err != nil || n != committed {
		t.Errorf("once the disk has room t has %d rows (%v), want the %d committed", n, err, committed)
	}
	exitWithin(t, server.terminate(t), time.Minute)
	conn = startMallard(t, db).connect(t)
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != committed {
		t.Errorf("after the restart t has %d rows (%v), want the %d committed", n, err, committed)
	}
}
