//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/sqlstate"
)

// TestClientMinMessages checks that client_min_messages decides which
// notices reach the client: a WARNING (BEGIN inside a transaction) reaches
// it at notice and warning, not at error.
func TestClientMinMessages(t *testing.T) {
	addr := startServer(t, sqlfront.Config{})
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { got = append(got, n.Severity+": "+n.Message) }
	conn := connectMode(t, cfg, pgx.QueryExecModeSimpleProtocol)
	for _, tt := range []struct{ level, want string }{
		{"notice", "[WARNING: there is already a transaction in progress]"},
		{"WARNING", "[WARNING: there is already a transaction in progress]"},
		{"error", "[]"},
		{"debug1", "[WARNING: there is already a transaction in progress]"},
	} {
		got = nil
		mustExec(t, conn, "SET client_min_messages = "+tt.level)
		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "COMMIT")
		if fmt.Sprint(got) != tt.want {
			t.Errorf("client_min_messages = %s: notices %v, want %s", tt.level, got, tt.want)
		}
	}
	_, err = conn.Exec(context.Background(), "SET client_min_messages = loud")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != string(sqlstate.InvalidParameterValue) || pgErr.Hint == "" {
		t.Errorf("SET client_min_messages = loud: %v, want %s with the values in a hint", err, sqlstate.InvalidParameterValue)
	}
	var level string
	if err := conn.QueryRow(context.Background(), "SHOW client_min_messages").Scan(&level); err != nil || level != "debug1" {
		t.Errorf("SHOW client_min_messages = %q, %v; want debug1", level, err)
	}
}
