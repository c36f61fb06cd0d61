//go:build duckdb_arrow

package functions_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
)

// slowEpochs is a train_gat call whose epochs take a few hundred
// milliseconds to a second each: long beside a NOTICE's trip to the client and a
// query from another session.
const slowEpochs = "SELECT epoch FROM train_gat('uw', model := 'slow', epochs := 4, hidden := [192, 192], heads := 4, batch_size := 1)"

var epochNotice = regexp.MustCompile(`: epoch (\d+) `)

// TestProgressNoticesLive checks that an epoch's NOTICE reaches the client
// when the epoch ends, in both protocols: when the client reads epoch k's
// NOTICE, another session sees k epochs recorded, not k+1. DuckDB hands
// over a table function's row only once the function has produced the next
// one, so a NOTICE the session sent only with rows came an epoch late: that
// of epoch 1 once epoch 2 was recorded, and with one epoch at the end.
func TestProgressNoticesLive(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	setup := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, setup)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		t.Run(mode.String(), func(t *testing.T) {
			other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
			recorded := map[int]int64{} // epoch of a NOTICE -> epochs recorded when the client read it
			cfg, err := pgx.ParseConfig(testserver.ConnString(addr))
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = mode
			cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
				m := epochNotice.FindStringSubmatch(n.Message)
				if m == nil {
					return
				}
				epoch, _ := strconv.Atoi(m[1])
				var count int64
				if err := other.QueryRow(ctx, `SELECT count(*) FROM mlops.training_metrics m JOIN mlops.training_runs r USING (run_id)
					WHERE r.status = 'training'`).Scan(&count); err != nil {
					t.Errorf("epoch %d: %v", epoch, err)
				}
				recorded[epoch] = count
			}
			conn, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			rows, err := conn.Query(ctx, slowEpochs)
			if err != nil {
				t.Fatal(err)
			}
			var epochs []int64
			for rows.Next() {
				var epoch int64
				if err := rows.Scan(&epoch); err != nil {
					t.Fatal(err)
				}
				epochs = append(epochs, epoch)
			}
			if err := rows.Err(); err != nil || len(epochs) != 4 || len(recorded) != 4 {
				t.Fatalf("rows %v, notices of epochs %v (%v)", epochs, recorded, err)
			}
			// The last epoch's NOTICE would be on time either way: training ends.
			for epoch := 1; epoch < 4; epoch++ {
				if recorded[epoch] != int64(epoch) {
					t.Errorf("the client read the NOTICE of epoch %d when %d epochs were recorded, want %d", epoch, recorded[epoch], epoch)
				}
			}
		})
	}
}
