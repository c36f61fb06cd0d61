//go:build duckdb_arrow

package functions_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// messageTables are a small wide table (a time column and three series)
// and a ratings table, enough to train on in a second.
const messageTables = `CREATE TABLE wide AS SELECT i AS t, sin(i / 3.0) AS a, cos(i / 4.0) AS b, sin(i / 5.0) AS c FROM range(60) r(i);
CREATE TABLE ratings AS SELECT u AS user_id, i AS item_id, ((u * 7 + i * 3) % 5 + 1)::double AS rating
	FROM range(30) a(u), range(20) b(i) WHERE (u + i) % 3 = 0`

// TestMessagesPointToTheFix checks that a mistake in a training call gets
// a message that says what is wrong with the value, and its SQLSTATE.
func TestMessagesPointToTheFix(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, messageTables, "CREATE TEMP TABLE session_wide AS SELECT * FROM wide")
	tests := []struct {
		name, sql, code string
		message, hint   []string // substrings
		notHint         []string
	}{
		{"@ in a GAT model name", "SELECT * FROM train_gat('wide', model := 'a@b', epochs := 1)", "42602",
			[]string{"train_gat", "'a@b'", "contains @"}, []string{"'a_b'"}, nil},
		{"@ in a recommender name", "SELECT * FROM train_recommender('ratings', model := 'r@1', epochs := 1)", "42602",
			[]string{"train_recommender", "'r@1'", "contains @"}, nil, nil},
		{"hidden := [0]", "SELECT * FROM train_gat('wide', model := 'g', hidden := [0], epochs := 1)", "22023",
			[]string{"hidden := [0]", "element 1 is 0", "1 to 1024"}, nil, nil},
		{"hidden := [16, 2000]", "SELECT * FROM train_recommender('ratings', model := 'r', hidden := [16, 2000])", "22023",
			[]string{"element 2 is 2000"}, nil, nil},
		{"min_user_ratings above every user", "SELECT * FROM train_recommender('ratings', model := 'r', min_user_ratings := 1000)", "22023",
			[]string{"min_user_ratings := 1000 leaves no user", "the most ratings a user of 'ratings' has is 7"}, []string{"at most 7"}, nil},
		{"temporary table", "SELECT * FROM train_gat('session_wide', model := 'g', epochs := 1)", "42P01",
			[]string{"session_wide"}, []string{"temporary table", "CREATE TABLE"}, nil},
		{"unknown named argument", "SELECT * FROM train_gat('wide', model := 'g', bogus := 1, epochs := 1)", "42883",
			[]string{"train_gat has no argument named bogus"}, []string{"window (an integer)", "model (text)"},
			[]string{"mallard_connection", "VARCHAR"}},
		{"unknown named arguments", "SELECT * FROM train_recommender('ratings', model := 'r', hiden := [2], epoch := 1)", "42883",
			[]string{"train_recommender has no arguments named hiden, epoch"}, []string{"hidden (a list of integers from 1 to 1024)"},
			[]string{"mallard_connection", "VARCHAR"}},
		{"positional after the model", "SELECT * FROM forecast('m', 4)", "42883",
			[]string{"forecast takes 1 positional argument (model), but the call gives 2"},
			[]string{"the arguments after model by name, as name := value", "steps (an integer)"},
			[]string{"mallard_connection", "VARCHAR"}},
		{"no positional", "SELECT * FROM recommend(user_id := 3)", "42883",
			[]string{"recommend takes 1 positional argument (model), but the call gives 0"},
			[]string{"recommend(model, "}, []string{"mallard_connection", "VARCHAR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectError(t, conn, tt.sql, tt.code, tt.message, tt.hint, tt.notHint)
		})
	}
}

// TestMissingWeights deletes a version's artifact rows: serving it says
// that its weights are missing, not that a checksum failed.
func TestMissingWeights(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, messageTables,
		"SELECT count(*) FROM train_gat('wide', model := 'g', epochs := 1)",
		"SELECT count(*) FROM train_recommender('ratings', model := 'r', epochs := 1)")
	tamper(t, db, "DELETE FROM mlops.artifacts")
	for _, q := range []string{"SELECT * FROM forecast('g')", "SELECT * FROM recommend('r', user_id := 3)"} {
		fn := q[len("SELECT * FROM "):strings.Index(q, "(")]
		expectError(t, conn, q, "55000", []string{fn + ": the saved weights of", "are missing"}, []string{"mlops.deploy"}, []string{"checksum"})
	}
}

func expectError(t *testing.T, conn *pgx.Conn, sql, code string, message, hint, notHint []string) {
	t.Helper()
	_, err := conn.Exec(context.Background(), sql)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("%s: %v, want an error %s", sql, err, code)
	}
	if pe.Code != code {
		t.Errorf("%s: SQLSTATE %s (%s), want %s", sql, pe.Code, pe.Message, code)
	}
	for _, m := range message {
		if !strings.Contains(pe.Message, m) {
			t.Errorf("%s: message %q lacks %q", sql, pe.Message, m)
		}
	}
	for _, h := range hint {
		if !strings.Contains(pe.Hint, h) {
			t.Errorf("%s: hint %q lacks %q", sql, pe.Hint, h)
		}
	}
	for _, h := range notHint {
		if strings.Contains(pe.Message+pe.Hint+pe.Detail, h) {
			t.Errorf("%s: %q / %q names %q", sql, pe.Message, pe.Hint, h)
		}
	}
}
