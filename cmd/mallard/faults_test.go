//go:build duckdb_arrow

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The fault tests kill the real server with SIGKILL in the middle of a
// write, start it again on the same database file and check that exactly
// the committed data is there. Every value of a row of table f derives
// from its id (faultRow), so a test only has to remember which ids it
// committed and which of them it negated.

// Ids at or above uncommittedBase are written only by statements that are
// not committed when the server is killed.
const uncommittedBase = 1_000_000_000

var faultEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// faultRow is the row with the given id as written.
func faultRow(id int64) (v float64, s *string, ts time.Time, b bool) {
	if id%7 != 0 {
		str := "s" + strconv.FormatInt(id, 10)
		s = &str
	}
	return float64(id) * 1.5, s, faultEpoch.Add(time.Duration(id) * time.Second), id%2 == 0
}

// faultInsertSQL inserts rows lo to hi-1 the way faultRow describes them.
func faultInsertSQL(lo, hi int64) string {
	return fmt.Sprintf(`INSERT INTO f SELECT i, i * 1.5, CASE WHEN i %% 7 = 0 THEN NULL ELSE 's' || i END,
		TIMESTAMP '2024-01-01 00:00:00' + i * INTERVAL 1 SECOND, i %% 2 = 0 FROM range(%d, %d) t(i)`, lo, hi)
}

// appendCopyRow appends the row with id in COPY's text format.
func appendCopyRow(buf []byte, id int64) []byte {
	v, s, ts, b := faultRow(id)
	buf = strconv.AppendInt(buf, id, 10)
	buf = append(buf, '\t')
	buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
	buf = append(buf, '\t')
	if s == nil {
		buf = append(buf, `\N`...)
	} else {
		buf = append(buf, *s...)
	}
	buf = append(buf, '\t')
	buf = ts.AppendFormat(buf, "2006-01-02 15:04:05")
	if b {
		return append(buf, "\tt\n"...)
	}
	return append(buf, "\tf\n"...)
}

// copyStream is an io.Reader of COPY text rows for ids next, next+1, ...
// up to but not including end (or without end if end is 0).
type copyStream struct {
	from      int64
	next, end int64
	buf       []byte
	off       int
	rows      atomic.Int64  // produced so far
	eof       chan struct{} // closed when Read has returned io.EOF
	once      sync.Once
}

func newCopyStream(from, end int64) *copyStream {
	return &copyStream{from: from, next: from, end: end, eof: make(chan struct{})}
}

func (r *copyStream) Read(p []byte) (int, error) {
	if r.off == len(r.buf) {
		if r.end != 0 && r.next >= r.end {
			r.once.Do(func() { close(r.eof) })
			return 0, io.EOF
		}
		r.buf, r.off = r.buf[:0], 0
		for i := 0; i < 1000 && (r.end == 0 || r.next < r.end); i++ {
			r.buf = appendCopyRow(r.buf, r.next)
			r.next++
		}
		r.rows.Store(r.next - r.from)
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// faultState is what a test has committed to table f.
type faultState struct {
	present map[int64]bool
	negated map[int64]bool
}

func (s *faultState) add(lo, hi int64) {
	for id := lo; id < hi; id++ {
		s.present[id] = true
	}
}

func (s *faultState) remove(lo, hi int64) {
	for id := lo; id < hi; id++ {
		delete(s.present, id)
	}
}

// negate flips the sign of v of rows lo to hi-1 whose id is a multiple of every.
func (s *faultState) negate(conn *pgx.Conn, t *testing.T, lo, hi, every int64) {
	t.Helper()
	execAll(t, conn, fmt.Sprintf("UPDATE f SET v = -v WHERE id >= %d AND id < %d AND id %% %d = 0", lo, hi, every))
	for id := lo; id < hi; id++ {
		if id%every == 0 && s.present[id] {
			s.negated[id] = !s.negated[id]
		}
	}
}

// commitBaseline creates table f and commits rows to it in every way a
// client can: COPY batches, parameterised INSERTs, an explicit transaction,
// an UPDATE and a DELETE; part of it is checkpointed into the database file
// and part is only in the WAL when the test goes on. A rolled-back
// transaction shows that a rollback is as durable as a commit.
func commitBaseline(t *testing.T, conn *pgx.Conn) *faultState {
	t.Helper()
	ctx := context.Background()
	s := &faultState{present: map[int64]bool{}, negated: map[int64]bool{}}
	execAll(t, conn, "CREATE TABLE f (id BIGINT PRIMARY KEY, v DOUBLE, s VARCHAR, ts TIMESTAMP, b BOOLEAN)")
	for _, r := range [][2]int64{{1, 10_001}, {10_001, 20_001}} {
		tag, err := conn.PgConn().CopyFrom(ctx, newCopyStream(r[0], r[1]), "COPY f FROM STDIN")
		if err != nil || tag.RowsAffected() != r[1]-r[0] {
			t.Fatalf("COPY of %v: %v %v", r, tag, err)
		}
		s.add(r[0], r[1])
	}
	for id := int64(20_001); id < 20_201; id++ {
		v, str, ts, b := faultRow(id)
		if _, err := conn.Exec(ctx, "INSERT INTO f VALUES ($1, $2, $3, $4, $5)", id, v, str, ts, b); err != nil {
			t.Fatal(err)
		}
	}
	s.add(20_001, 20_201)
	execAll(t, conn, "CHECKPOINT")
	execAll(t, conn, "BEGIN", faultInsertSQL(30_001, 31_001), "COMMIT")
	s.add(30_001, 31_001)
	execAll(t, conn, "BEGIN", faultInsertSQL(31_001, 32_001), "ROLLBACK")
	s.negate(conn, t, 1, 5_001, 10)
	execAll(t, conn, "DELETE FROM f WHERE id >= 9_000 AND id < 9_100")
	s.remove(9_000, 9_100)
	verifyFault(t, conn, s) // the test's model agrees with the server before the kill
	return s
}

// verifyFault reads table f in id order and compares it with s: every
// committed row with its values, nothing else.
func verifyFault(t *testing.T, conn *pgx.Conn, s *faultState) {
	t.Helper()
	want := make([]int64, 0, len(s.present))
	for id := range s.present {
		want = append(want, id)
	}
	slices.Sort(want)
	rows, err := conn.Query(context.Background(), "SELECT id, v, s, ts, b FROM f ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var (
		id                int64
		v                 float64
		str               *string
		ts                time.Time
		b                 bool
		i, bad, strangers int
	)
	report := func(format string, args ...any) {
		if bad++; bad <= 10 {
			t.Errorf(format, args...)
		}
	}
	_, err = pgx.ForEachRow(rows, []any{&id, &v, &str, &ts, &b}, func() error {
		for i < len(want) && want[i] < id {
			report("committed row %d is missing", want[i])
			i++
		}
		if i == len(want) || want[i] != id {
			if strangers++; id >= uncommittedBase {
				report("row %d, never committed, is present", id)
			} else {
				report("row %d is present, want it absent (rolled back or deleted)", id)
			}
			return nil
		}
		i++
		wv, ws, wts, wb := faultRow(id)
		if s.negated[id] {
			wv = -wv
		}
		if v != wv || (str == nil) != (ws == nil) || str != nil && *str != *ws || !ts.Equal(wts) || b != wb {
			report("row %d is (%v, %v, %v, %v), want (%v, %v, %v, %v)", id, v, deref(str), ts, b, wv, deref(ws), wts, wb)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for ; i < len(want); i++ {
		report("committed row %d is missing", want[i])
	}
	if bad > 10 {
		t.Errorf("... %d wrong rows in all, %d of them present but not committed", bad, strangers)
	}
}

func deref(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

// restartAndVerify starts the server again on dbPath after a kill and
// checks the database: it opens without help, no training run is left
// training, and f holds exactly s. Then it writes and checkpoints, which
// reuses the blocks the dead process's uncommitted writes left behind, is
// killed once more and restarted, and f must still read back exactly from
// the file: a committed block taken for free space would show here.
func restartAndVerify(t *testing.T, dbPath string, s *faultState) {
	t.Helper()
	p := startMallard(t, dbPath)
	conn := p.connect(t)
	if n := trainingLeft(t, conn); n != 0 {
		t.Errorf("%d training runs left with status training after the restart", n)
	}
	verifyFault(t, conn, s)
	if left := p.spoolFiles(); len(left) > 0 {
		t.Errorf("%d COPY spool files of the killed process are left after the restart: %v", len(left), spoolSizes(left))
	}
	execAll(t, conn, faultInsertSQL(300_001, 500_001), "CHECKPOINT")
	s.add(300_001, 500_001)
	s.negate(conn, t, 300_001, 500_001, 3)
	p.kill(t)
	verifyFault(t, startMallard(t, dbPath).connect(t), s)
}

func spoolSizes(files []string) []string {
	var out []string
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			out = append(out, fmt.Sprintf("%s (%s)", filepath.Base(f), mib(fi.Size())))
		}
	}
	return out
}

// fileSize is the size of path, 0 if it does not exist.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// pollUntil polls cond every 10 ms until it holds, done is closed, or a
// minute has passed; it reports whether cond held.
func pollUntil(done <-chan struct{}, cond func() bool) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
		select {
		case <-done:
			return cond()
		default:
		}
	}
	return false
}

// TestKilledDuringCopy kills the server during a COPY FROM STDIN, once while
// it receives the rows and once while DuckDB loads them; neither COPY was
// acknowledged, so none of its rows may be there after the restart.
func TestKilledDuringCopy(t *testing.T) {
	t.Run("receiving", func(t *testing.T) {
		dbPath := filepath.Join(t.TempDir(), "f.duckdb")
		p := startMallard(t, dbPath)
		conn := p.connect(t)
		s := commitBaseline(t, conn)

		// Endless rows: the client never sends CopyDone. Once the spool file
		// holds 16 MiB the server is busy receiving, beyond what socket
		// buffers could hold.
		stream := newCopyStream(uncommittedBase, 0)
		copied := make(chan error, 1)
		copier := p.dial(t)
		go func() {
			defer copier.Close(context.Background())
			_, err := copier.PgConn().CopyFrom(context.Background(), stream, "COPY f FROM STDIN")
			copied <- err
		}()
		spooling := func() bool {
			for _, f := range p.spoolFiles() {
				if fileSize(f) > 16<<20 {
					return true
				}
			}
			return false
		}
		if !pollUntil(nil, spooling) {
			t.Fatalf("no spool file reached 16 MiB; %d rows sent", stream.rows.Load())
		}
		p.kill(t)
		if err := <-copied; err == nil {
			t.Fatal("the endless COPY succeeded")
		}
		t.Logf("killed after %d rows were sent", stream.rows.Load())
		restartAndVerify(t, dbPath, s)
	})
	t.Run("loading", func(t *testing.T) {
		dbPath := filepath.Join(t.TempDir(), "f.duckdb")
		p := startMallard(t, dbPath)
		conn := p.connect(t)
		s := commitBaseline(t, conn)
		execAll(t, conn, "CHECKPOINT")

		// All rows are sent; DuckDB writes the rows of a large insert into
		// the database file before it commits, so the file growing beyond
		// its checkpointed size shows that the load is under way.
		const n = 1_500_000
		stream := newCopyStream(uncommittedBase, uncommittedBase+n)
		copied := make(chan error, 1)
		copier := p.dial(t)
		size := fileSize(dbPath)
		go func() {
			defer copier.Close(context.Background())
			_, err := copier.PgConn().CopyFrom(context.Background(), stream, "COPY f FROM STDIN")
			copied <- err
		}()
		done := make(chan struct{})
		var copyErr error
		go func() { copyErr = <-copied; close(done) }()
		loading := pollUntil(done, func() bool {
			select {
			case <-stream.eof:
				return fileSize(dbPath) > size
			default:
				return false
			}
		})
		grown := fileSize(dbPath)
		p.kill(t)
		<-done
		t.Logf("killed with all %d rows sent, the database file grown from %s to %s", n, mib(size), mib(grown))
		switch {
		case copyErr == nil:
			t.Logf("the COPY of %d rows completed before the kill", n)
			s.add(uncommittedBase, uncommittedBase+n)
		case !loading:
			t.Fatalf("the database file never grew during the COPY (%v)", copyErr)
		}
		restartAndVerify(t, dbPath, s)
	})
}

// TestKilledDuringTransaction kills the server while a large transaction is
// open: it has inserted rows (some of them already written to the database
// file), updated and deleted committed rows, inserted with parameters,
// COPYed, and is in the middle of another large INSERT. Meanwhile another
// session committed inserts and an update of other rows. After the restart
// only the other session's work and the baseline are there.
func TestKilledDuringTransaction(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "f.duckdb")
	p := startMallard(t, dbPath)
	conn := p.connect(t)
	s := commitBaseline(t, conn)

	txConn := p.dial(t)
	tx, err := txConn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		faultInsertSQL(uncommittedBase, uncommittedBase+500_000),
		"UPDATE f SET v = 0, s = 'uncommitted' WHERE id >= 1 AND id < 1_001",
		"DELETE FROM f WHERE id >= 2_001 AND id < 3_001",
	} {
		if _, err := tx.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for id := int64(uncommittedBase + 600_000); id < uncommittedBase+600_050; id++ {
		v, str, ts, b := faultRow(id)
		if _, err := tx.Exec(ctx, "INSERT INTO f VALUES ($1, $2, $3, $4, $5)", id, v, str, ts, b); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := txConn.PgConn().CopyFrom(ctx, newCopyStream(uncommittedBase+700_000, uncommittedBase+710_000), "COPY f FROM STDIN"); err != nil {
		t.Fatal(err)
	}
	var seen int
	if err := tx.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM f WHERE id >= %d", uncommittedBase)).Scan(&seen); err != nil || seen != 510_050 {
		t.Fatalf("the transaction sees %d of its rows (%v), want 510050", seen, err)
	}

	// Another session commits while the transaction is open.
	execAll(t, conn, faultInsertSQL(50_001, 51_001))
	s.add(50_001, 51_001)
	s.negate(conn, t, 12_001, 12_101, 1)

	size := fileSize(dbPath)
	running := make(chan struct{})
	go func() {
		defer close(running)
		defer txConn.Close(context.Background())
		_, _ = tx.Exec(ctx, faultInsertSQL(uncommittedBase+1_000_000, uncommittedBase+50_000_000))
	}()
	if !pollUntil(running, func() bool { return fileSize(dbPath) > size }) {
		t.Fatal("the database file did not grow during the second large INSERT")
	}
	select {
	case <-running:
		t.Log("the second large INSERT ended before the kill; the transaction is still open")
	default:
	}
	p.kill(t)
	<-running
	restartAndVerify(t, dbPath, s)
}
