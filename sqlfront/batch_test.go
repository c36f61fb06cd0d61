//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/sqlfront"
)

// compareTarget is a server a client-level test runs against: Mallard,
// and PostgreSQL as well under scripts/with-postgres.sh, so that the
// test's expectations are checked against the real thing.
type compareTarget struct {
	name string
	cfg  *pgx.ConnConfig
}

// compareTargets starts a Mallard server and, when MALLARD_TEST_POSTGRES is
// set, creates a fresh PostgreSQL database; both are gone when t ends.
func compareTargets(t *testing.T) []compareTarget {
	t.Helper()
	cfg, err := pgx.ParseConfig(connString(startServer(t, sqlfront.Config{})))
	if err != nil {
		t.Fatal(err)
	}
	targets := []compareTarget{{"mallard", cfg}}
	if os.Getenv("MALLARD_TEST_POSTGRES") != "" {
		targets = append(targets, compareTarget{"postgres", freshPostgresDatabase(t)})
	}
	return targets
}

// TestBatchSetLocal sends a pgx batch outside a transaction block that
// sets options locally, with SET LOCAL and with set_config(..., true),
// and reads them in later statements of the batch. A batch is one
// implicit transaction in Postgres: one Sync in the extended protocol,
// one multi-statement Query in the simple one. So the values hold for
// the rest of the batch, and are gone after it, in every exec mode.
func TestBatchSetLocal(t *testing.T) {
	for _, target := range compareTargets(t) {
		for _, m := range execModes {
			t.Run(target.name+"/"+m.name, func(t *testing.T) {
				conn := connectMode(t, target.cfg, m.mode)
				ctx := context.Background()
				b := &pgx.Batch{}
				b.Queue("SET LOCAL myapp.user_id = '42'")
				b.Queue("SELECT current_setting('myapp.user_id')")
				b.Queue("SELECT set_config('myapp.role', $1, true)", "editor")
				b.Queue("SELECT current_setting('myapp.role') || '/' || current_setting('myapp.user_id')")
				results := conn.SendBatch(ctx, b)
				if _, err := results.Exec(); err != nil {
					t.Fatalf("SET LOCAL: %v", err)
				}
				var got []string
				for range 3 {
					var v string
					if err := results.QueryRow().Scan(&v); err != nil {
						t.Fatalf("after %q: %v", got, err)
					}
					got = append(got, v)
				}
				if err := results.Close(); err != nil {
					t.Fatal(err)
				}
				var user, role string
				err := conn.QueryRow(ctx, "SELECT current_setting('myapp.user_id', true), current_setting('myapp.role', true)").Scan(&user, &role)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, user, role)
				if want := []string{"42", "editor", "editor/42", "", ""}; !slices.Equal(got, want) {
					t.Errorf("in the batch and after it: %q, want %q", got, want)
				}
			})
		}
	}
}
