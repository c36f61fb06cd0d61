//go:build duckdb_arrow

package functions_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// attentionRow is one row of attention().
type attentionRow struct {
	source, target string
	weight         float64
}

// readAttention runs query, which selects attention()'s columns, and
// checks that the rows are ordered by target, then weight from the
// largest, that every weight is in (0, 1], and that every target has its
// self loop.
func readAttention(t *testing.T, conn *pgx.Conn, query string) []attentionRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (attentionRow, error) {
		var a attentionRow
		return a, r.Scan(&a.source, &a.target, &a.weight)
	})
	if err != nil {
		t.Fatal(err)
	}
	self := map[string]bool{}
	for k, r := range got {
		if k > 0 && (r.target < got[k-1].target || r.target == got[k-1].target && r.weight > got[k-1].weight) {
			t.Errorf("row %d %+v follows %+v: not ordered by target, then weight descending", k, r, got[k-1])
		}
		if !(r.weight > 0 && r.weight <= 1) {
			t.Errorf("row %+v: weight outside (0, 1]", r)
		}
		self[r.target] = self[r.target] || r.source == r.target
	}
	for target, ok := range self {
		if !ok {
			t.Errorf("target %s has no self loop", target)
		}
	}
	return got
}

// TestAttention reads the attention of a GAT trained without a neighbour
// limit, whose weights into each of the 14 entities sum to 1 over all 14
// sources, and of one trained with a limit of 2, which keeps each
// target's self loop and its 2 strongest other sources, in both protocol
// modes.
func TestAttention(t *testing.T) {
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 2, hidden := [4, 4])",
		"SELECT count(*) FROM train_gat('uw', model := 'n', epochs := 2, hidden := [4, 4], neighbors := 2)")
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		c := connect(t, addr, mode)
		all := readAttention(t, c, "SELECT source, target, weight FROM attention('g')")
		sums := map[string]float64{}
		for _, r := range all {
			sums[r.target] += r.weight
		}
		if len(all) != 14*14 || len(sums) != 14 || all[0].target != "agriculture" {
			t.Fatalf("%v: %d rows for %d targets, first %+v; want 196 for 14, agriculture first", mode, len(all), len(sums), all[0])
		}
		for target, s := range sums {
			if math.Abs(s-1) > 1e-9 {
				t.Errorf("%v: weights into %s sum to %v, want 1", mode, target, s)
			}
		}
		limited := readAttention(t, c, "SELECT * FROM attention('n', version := 1)")
		degree, self := map[string]int{}, map[string]bool{}
		for _, r := range limited {
			degree[r.target]++
			self[r.target] = self[r.target] || r.source == r.target
		}
		for target, d := range degree {
			if d != 3 || !self[target] {
				t.Errorf("%v: neighbors := 2: %s has %d sources (its self loop: %v), want its self loop and 2 others", mode, target, d, self[target])
			}
		}
		if len(degree) != 14 {
			t.Errorf("%v: neighbors := 2: %d targets, want 14", mode, len(degree))
		}
	}
}

// TestAttentionErrors checks what attention() refuses: an unknown model,
// a recommender, and versions whose report holds no attention.
func TestAttentionErrors(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 1, hidden := [4, 4])",
		"SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 1, hidden := [4, 4], deploy := 'never')")
	tamper(t, db, `INSERT INTO mlops.models (name, version, kind, status, run_id, hyperparameters, source, fingerprint, rows, entities, mallard_version)
			VALUES ('rec', 1, 'recommender', 'ready', 0, '{}', 'ratings', '', 0, 0, 'test')`)
	tests := []struct{ name, setup, query, code, message, hint string }{
		{"unknown model", "", "attention('nope')", "42704", "model 'nope' does not exist", ""},
		{"recommender", "", "attention('rec', version := 1)", "42809", "rec@1 is of kind recommender, not gat", ""},
		{"unknown version", "", "attention('g', version := 9)", "42704", "9", ""},
		{"report before attention", "UPDATE mlops.reports SET data = '{\"units\": \"model\"}' WHERE name = 'g' AND version = 2",
			"attention('g', version := 2)", "55000", "g@2 has no attention: it was trained before Mallard computed attention", "train the model again"},
		{"did not finish", "UPDATE mlops.models SET status = 'canceled' WHERE name = 'g' AND version = 2; DELETE FROM mlops.reports WHERE name = 'g' AND version = 2",
			"attention('g@2')", "55000", "did not finish training (status canceled)", "status is ready"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != "" {
				tamper(t, db, strings.Split(tt.setup, "; ")...)
			}
			e := errorCode(t, conn, "SELECT * FROM "+tt.query)
			if e.Code != tt.code || !strings.Contains(e.Message, tt.message) || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("got %s %q (hint %q), want %s containing %q (hint with %q)", e.Code, e.Message, e.Hint, tt.code, tt.message, tt.hint)
			}
		})
	}
	if n := len(readAttention(t, conn, "SELECT * FROM attention('g')")); n != 14*14 {
		t.Errorf("the deployed version has %d rows, want 196", n)
	}
}
