//go:build duckdb_arrow

package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestMemoryLimitBindsTraining: with --memory-limit 256MB (192 MB of it
// Mallard's to reserve) a train_gat whose data (1,000,000 rows x 10
// entities, 240 MB estimated) and train_recommenders whose ratings (7M,
// 224 MB) or item tables (20,000 items x hidden 256 with Adam, 246 MB) do
// not fit fail with 53200 naming what and the setting, register nothing,
// give back what they reserved (DuckDB's memory_limit is as before) and
// leave the server answering; small ones then train. The large sources
// are views, so that the test makes nothing of their size.
func TestMemoryLimitBindsTraining(t *testing.T) {
	ctx := context.Background()
	server := startMallard(t, filepath.Join(t.TempDir(), "mem.duckdb"), "--memory-limit", "256MB")
	conn := server.connect(t)
	execAll(t, conn,
		`CREATE VIEW gat_big AS SELECT i AS t, sin(i) AS e0, sin(i+1) AS e1, sin(i+2) AS e2, sin(i+3) AS e3, sin(i+4) AS e4,
			sin(i+5) AS e5, sin(i+6) AS e6, sin(i+7) AS e7, sin(i+8) AS e8, sin(i+9) AS e9 FROM range(1000000) r(i)`,
		`CREATE TABLE gat_small AS SELECT i AS t, sin(i / 2.0) AS a, cos(i / 3.0) AS b, sin(i / 5.0) AS c FROM range(80) r(i)`,
		`CREATE VIEW rec_many AS SELECT i % 50000 AS user_id, i % 7919 AS item_id, 1.0 + i % 5 AS rating FROM range(7000000) r(i)`,
		`CREATE TABLE rec_wide AS SELECT i % 500 AS user_id, i AS item_id, 1.0 + i % 5 AS rating FROM range(20000) r(i)`,
		`CREATE TABLE rec_small AS SELECT i // 20 AS user_id, i % 20 + (i // 20) % 30 AS item_id, 1.0 + i % 5 AS rating FROM range(2000) r(i)`)
	limit := func() string {
		var s string
		if err := conn.QueryRow(ctx, "SELECT current_setting('memory_limit')").Scan(&s); err != nil {
			t.Fatalf("memory_limit: %v", err)
		}
		return s
	}
	before := limit()
	for _, tt := range []struct {
		name, query string
		want        []string
	}{
		{"gat data", `SELECT count(*) FROM train_gat('gat_big', model := 'g_big', time := ['t'], epochs := 1)`,
			[]string{"train_gat's training data (1000000 rows x 10 entities)", "228.9 MiB", "memory_limit 256MB"}},
		{"recommender ratings", `SELECT count(*) FROM train_recommender('rec_many', model := 'r_many', epochs := 1)`,
			[]string{"train_recommender's ratings (7000000)", "213.6 MiB", "memory_limit 256MB"}},
		{"recommender tables", `SELECT count(*) FROM train_recommender('rec_wide', model := 'r_wide', hidden := [256], epochs := 1)`,
			[]string{"train_recommender's item tables and optimiser state (20000 items, hidden [256], adam)", "memory_limit 256MB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var n int64
			err := conn.QueryRow(ctx, tt.query).Scan(&n)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "53200" {
				t.Fatalf("a training past the memory limit gave %v, want 53200", err)
			}
			for _, part := range tt.want {
				if !strings.Contains(pe.Message, part) {
					t.Errorf("message %q does not name %q", pe.Message, part)
				}
			}
			if err := server.running(); err != nil {
				t.Fatalf("server after the refused training: %v", err)
			}
			if got := limit(); got != before {
				t.Errorf("memory_limit after the refused training is %s, want %s as before it", got, before)
			}
		})
	}
	var registered int64
	if err := conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM mlops.models WHERE name IN ('g_big', 'r_many', 'r_wide')) +
		(SELECT count(*) FROM mlops.training_runs WHERE model IN ('g_big', 'r_many', 'r_wide'))`).Scan(&registered); err != nil || registered != 0 {
		t.Errorf("the refused trainings left %d models and runs in the registry (%v), want none", registered, err)
	}
	for _, q := range []string{
		`SELECT count(*) FROM train_gat('gat_small', model := 'g_small', time := ['t'], epochs := 2)`,
		`SELECT count(*) FROM train_recommender('rec_small', model := 'r_small', epochs := 2)`,
	} {
		var n int64
		if err := conn.QueryRow(ctx, q).Scan(&n); err != nil || n != 2 {
			t.Fatalf("%s: %d epochs, %v; want 2", q, n, err)
		}
	}
	var ready int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM mlops.models WHERE name IN ('g_small', 'r_small') AND status = 'ready'").Scan(&ready); err != nil || ready != 2 {
		t.Errorf("%d of the two small models ready (%v)", ready, err)
	}
	if got := limit(); got != before {
		t.Errorf("memory_limit after the trainings is %s, want %s as before them", got, before)
	}
}
