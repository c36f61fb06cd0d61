//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
)

// TestTrainingNoticesFollowClientMinMessages checks that SET
// client_min_messages = warning silences train_gat's per-epoch NOTICEs
// while its rows still stream, and that notice brings them back, in both
// protocols.
func TestTrainingNoticesFollowClientMinMessages(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	scaledUnemployment(t, connect(t, addr, pgx.QueryExecModeSimpleProtocol))
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		t.Run(mode.String(), func(t *testing.T) {
			var notices []string
			cfg, err := pgx.ParseConfig(testserver.ConnString(addr))
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = mode
			cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
			conn, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			for i, tt := range []struct {
				level string
				quiet bool
			}{{"warning", true}, {"notice", false}} {
				notices = nil
				exec(t, conn, "SET client_min_messages = "+tt.level)
				rows, err := conn.Query(ctx, fmt.Sprintf("SELECT epoch FROM train_gat('uw', model := 'quiet', epochs := 3, seed := %d)", i+1))
				if err != nil {
					t.Fatal(err)
				}
				epochs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
				if err != nil || len(epochs) != 3 {
					t.Fatalf("client_min_messages = %s: epochs %v (%v), want 3 rows", tt.level, epochs, err)
				}
				if tt.quiet && len(notices) != 0 || !tt.quiet && len(notices) < 3 {
					t.Errorf("client_min_messages = %s: %d notices %q", tt.level, len(notices), notices)
				}
			}
		})
	}
}
