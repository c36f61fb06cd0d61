//go:build duckdb_arrow

package functions_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestTrainGATStrategy checks strategy := s: a strategy not accepted is
// refused with 22023 naming the accepted ones; multi_output and direct
// at horizon 1 are trained and stored as recursive, with a NOTICE; a multi_output
// version records its strategy, forecasts its own steps (not those of
// the recursive network of the same seed) from the stored artifact, and
// a resume keeps the strategy and refuses another horizon.
func TestTrainGATStrategy(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	scaledUnemployment(t, conn)
	e := errorCode(t, conn, "SELECT * FROM train_gat('uw', model := 'e', strategy := 'x')")
	if e.Code != "22023" || !strings.Contains(e.Message, "strategy := 'x' is not accepted; use one of 'recursive', 'direct', 'multi_output'") {
		t.Errorf("strategy := 'x': %s %q, want 22023 naming the strategies", e.Code, e.Message)
	}
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'm1', epochs := 2, strategy := 'multi_output', anchor := 'last_value')",
		"SELECT count(*) FROM train_gat('uw', model := 'd1', epochs := 2, horizon := 1, strategy := 'direct', anchor := 'last_value')",
		"SELECT count(*) FROM train_gat('uw', model := 'm6', epochs := 3, horizon := 6, seed := 2, strategy := 'multi_output', anchor := 'last_value')",
		"SELECT count(*) FROM train_gat('uw', model := 'r6', epochs := 3, horizon := 6, seed := 2, anchor := 'last_value')")
	for _, s := range []string{"multi_output", "direct"} {
		if !slices.ContainsFunc(notices, func(n string) bool {
			return strings.Contains(n, "strategy := '"+s+"' at horizon 1 is the recursive strategy")
		}) {
			t.Errorf("no NOTICE says %s at horizon 1 is recursive: %q", s, notices)
		}
	}
	for model, want := range map[string]string{"m1": "recursive", "d1": "recursive", "m6": "multi_output", "r6": "recursive"} {
		if got := scanOne[string](t, conn, "SELECT hyperparameters->>'strategy' FROM mlops.models WHERE name = '"+model+"'"); got != want {
			t.Errorf("%s: hyperparameters strategy %q, want %q", model, got, want)
		}
	}
	const step6 = "SELECT string_agg(prediction::text, ',' ORDER BY step, entity) FROM forecast('%s', steps := 6) WHERE step > 1"
	if multi, rec := scanOne[string](t, conn, strings.Replace(step6, "%s", "m6", 1)), scanOne[string](t, conn, strings.Replace(step6, "%s", "r6", 1)); multi == rec {
		t.Errorf("forecast of m6 (multi_output) equals r6's (recursive) at steps 2..6: %s", multi)
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM forecast('m6', steps := 13)"); n != 13*14 {
		t.Errorf("forecast of m6 past its steps: %d rows, want 13 steps x 14 entities", n)
	}
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', resume := 'm6', epochs := 5)")
	if got := scanOne[string](t, conn, "SELECT (hyperparameters->>'strategy') || ' ' || (hyperparameters->>'horizon') FROM mlops.models WHERE name = 'm6' AND version = 2"); got != "multi_output 6" {
		t.Errorf("resumed m6: strategy and horizon %q, want multi_output 6", got)
	}
	for _, tt := range []struct{ args, message string }{
		{"horizon := 3", "horizon := 3 differs from the horizon 6 of m6@2"},
		{"strategy := 'recursive'", "strategy := recursive differs from multi_output of m6@2"},
	} {
		e := errorCode(t, conn, "SELECT * FROM train_gat('uw', resume := 'm6', epochs := 9, "+tt.args+")")
		if e.Code != "22023" || !strings.Contains(e.Message, tt.message) {
			t.Errorf("resume with %s: %s %q, want 22023 containing %q", tt.args, e.Code, e.Message, tt.message)
		}
	}
}
