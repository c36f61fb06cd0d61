//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// panicEngine is the real engine whose connections panic when asked to
// prepare a statement that mentions panicMarker: a bug in the server,
// planted where every message that runs SQL passes.
type panicEngine struct{ sqlfront.Engine }

const panicMarker = "mallard_test_panic"

func (e panicEngine) Connect() (sqlfront.Conn, error) {
	c, err := e.Engine.Connect()
	return panicConn{c}, err
}

type panicConn struct{ sqlfront.Conn }

func (c panicConn) Prepare(ctx context.Context, query string) (sqlfront.Stmt, error) {
	if strings.Contains(query, panicMarker) {
		var cols []int
		_ = cols[len(query)] // index out of range
	}
	return c.Conn.Prepare(ctx, query)
}

// TestPanicFailsOnlyTheStatement: a panic while a session handles a
// message fails that statement with XX000 and a short message, in the
// simple and in the extended protocol, and the connection goes on: the
// next statement runs, and inside a transaction block the block is failed
// (25P02) until ROLLBACK, as after any error.
func TestPanicFailsOnlyTheStatement(t *testing.T) {
	db, err := storage.Open(context.Background(), storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, addr := serveFront(t, sqlfront.Config{}, panicEngine{server.Engine(db)}, defaultPlanner(), nil, db.Close)
	ctx := context.Background()
	for _, m := range execModes {
		t.Run(m.name, func(t *testing.T) {
			conn := connect(t, addr, m.mode)
			_, err := conn.Exec(ctx, "SELECT '"+panicMarker+"'")
			if code, msg := pgCode(err); code != "XX000" || !strings.HasPrefix(msg, "internal error: runtime error: index out of range") {
				t.Fatalf("statement that panics: %v, want XX000 internal error: runtime error: index out of range", err)
			}
			var n int
			if err := conn.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
				t.Fatalf("the next statement: %d, %v", n, err)
			}
			if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
				t.Fatal(err)
			}
			conn.Exec(ctx, "SELECT '"+panicMarker+"'")
			if _, err := conn.Exec(ctx, "SELECT 1"); err == nil {
				t.Fatal("a statement after the panic in a transaction block ran; want 25P02")
			} else if code, _ := pgCode(err); code != "25P02" {
				t.Fatalf("a statement after the panic in a transaction block: %v, want 25P02", err)
			}
			if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
				t.Fatal(err)
			}
			if err := conn.QueryRow(ctx, "SELECT 2").Scan(&n); err != nil || n != 2 {
				t.Fatalf("after ROLLBACK: %d, %v", n, err)
			}
		})
	}
}
