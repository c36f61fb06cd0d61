package functions_test

import (
	"strings"
	"testing"
)

// TestNewNamesRefused: every argument that names a new model or scaler
// takes at most 63 bytes without control characters (22023, the value
// shown escaped and truncated), and nothing is saved by the refused calls.
func TestNewNamesRefused(t *testing.T) {
	conn := wideUnemployment(t)
	exec(t, conn, "CREATE TABLE ratings AS SELECT range % 7 AS user_id, range % 5 AS item_id, 1.0 + range % 3 AS rating FROM range(60)")
	long := strings.Repeat("n", 64)
	for _, bad := range []struct{ value, sql, message string }{
		{long, "'" + long + "'", `"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"... is 64 bytes long`},
		{"a\nb", "'a' || chr(10) || 'b'", `"a\nb" contains a control character`},
		{"tab", "'x' || chr(9)", `"x\t" contains a control character`},
	} {
		for _, call := range []struct{ fn, query string }{
			{"train_gat", "train_gat('w', model := %s, epochs := 1)"},
			{"train_recommender", "train_recommender('ratings', model := %s, epochs := 1)"},
			{"rescale", "rescale('w', save_as := %s)"},
		} {
			q := "SELECT * FROM " + strings.Replace(call.query, "%s", bad.sql, 1)
			e := errorCode(t, conn, q)
			if e.Code != "22023" || !strings.Contains(e.Message, bad.message) || !strings.HasPrefix(e.Message, call.fn+":") {
				t.Errorf("%s: got %s %q, want 22023 from %s containing %q", q, e.Code, e.Message, call.fn, bad.message)
			}
		}
	}
	for _, table := range []string{"mlops.scalers", "mlops.models", "mlops.training_runs"} {
		var n int
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM "+table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows after the refused calls (%v), want 0", table, n, err)
		}
	}
	exec(t, conn, "SELECT * FROM rescale('w', save_as := '"+long[:63]+"')") // 63 bytes are accepted
}
