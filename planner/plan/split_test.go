package plan_test

import (
	"reflect"
	"testing"

	"github.com/mallard/mallard/planner/plan"
)

// piece is the part of a Statement that Split decides.
type piece struct {
	Text   string
	Offset int
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []piece
	}{
		{"empty", "", nil},
		{"whitespace", " \t\r\n\f\v", nil},
		{"only semicolons", ";;", nil},
		{"only line comment", "-- nothing here", nil},
		{"only comments and semicolons", "/* a */ ; -- b\n ; /* c /* d */ e */", nil},
		{"one", "SELECT 1", []piece{{"SELECT 1", 0}}},
		{"trimmed", "  SELECT 1 \n", []piece{{"SELECT 1", 2}}},
		{"trailing semicolon", "SELECT 1;", []piece{{"SELECT 1", 0}}},
		{"trailing semicolons and space", "SELECT 1 ; ;\n", []piece{{"SELECT 1", 0}}},
		{"two", "SELECT 1; SELECT 2", []piece{{"SELECT 1", 0}, {"SELECT 2", 10}}},
		{"double semicolon between", "SELECT 1;;SELECT 2", []piece{{"SELECT 1", 0}, {"SELECT 2", 10}}},
		{"semicolon in string", "SELECT 'a;b'; SELECT 2",
			[]piece{{"SELECT 'a;b'", 0}, {"SELECT 2", 14}}},
		{"doubled quote in string", "SELECT 'it''s; fine'; SELECT 2",
			[]piece{{"SELECT 'it''s; fine'", 0}, {"SELECT 2", 22}}},
		{"backslash in standard string", `SELECT 'a\'; SELECT 2`,
			[]piece{{`SELECT 'a\'`, 0}, {"SELECT 2", 13}}},
		{"escaped quote in E string", `SELECT E'a\'; b'; SELECT 2`,
			[]piece{{`SELECT E'a\'; b'`, 0}, {"SELECT 2", 18}}},
		{"lower-case e string", `SELECT e'\\'; SELECT 2`,
			[]piece{{`SELECT e'\\'`, 0}, {"SELECT 2", 14}}},
		{"word ending in e is not an E string", `SELECT some'a\'; SELECT 2`,
			[]piece{{`SELECT some'a\'`, 0}, {"SELECT 2", 17}}},
		{"semicolon in quoted identifier", `SELECT 1 AS "a;""b"; SELECT 2`,
			[]piece{{`SELECT 1 AS "a;""b"`, 0}, {"SELECT 2", 21}}},
		{"semicolon in dollar quote", "SELECT $$a;'b$$; SELECT 2",
			[]piece{{"SELECT $$a;'b$$", 0}, {"SELECT 2", 17}}},
		{"tagged dollar quote", "SELECT $fn$ $$; $x$ $fn$; SELECT 2",
			[]piece{{"SELECT $fn$ $$; $x$ $fn$", 0}, {"SELECT 2", 26}}},
		{"parameter is not a dollar quote", "SELECT $1; SELECT $2",
			[]piece{{"SELECT $1", 0}, {"SELECT $2", 11}}},
		{"dollar inside identifier", "SELECT a$b$; SELECT 2",
			[]piece{{"SELECT a$b$", 0}, {"SELECT 2", 13}}},
		{"semicolon in line comment", "SELECT 1 -- x; y\n; SELECT 2",
			[]piece{{"SELECT 1 -- x; y", 0}, {"SELECT 2", 19}}},
		{"semicolon in nested block comment", "SELECT /* a /* b; */ c; */ 1; SELECT 2",
			[]piece{{"SELECT /* a /* b; */ c; */ 1", 0}, {"SELECT 2", 30}}},
		{"leading comment kept", "/* hint */ SELECT 1; -- done",
			[]piece{{"/* hint */ SELECT 1", 0}}},
		{"comment-only statement dropped", "SELECT 1; /* x */; SELECT 2",
			[]piece{{"SELECT 1", 0}, {"SELECT 2", 19}}},
		{"semicolon in parentheses", "CREATE MACRO m() AS (SELECT 1; ); SELECT 2",
			[]piece{{"CREATE MACRO m() AS (SELECT 1; )", 0}, {"SELECT 2", 34}}},
		{"stray closing parenthesis", "SELECT 1); SELECT 2",
			[]piece{{"SELECT 1)", 0}, {"SELECT 2", 11}}},
		{"unterminated string", "SELECT 'a; SELECT 2", []piece{{"SELECT 'a; SELECT 2", 0}}},
		{"unterminated comment", "SELECT 1; /* a; b", []piece{{"SELECT 1", 0}}},
		{"multi-byte text", "SELECT 'é;'; SELECT 'ü'",
			[]piece{{"SELECT 'é;'", 0}, {"SELECT 'ü'", 14}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stmts := plan.Split(tt.input)
			var got []piece
			for _, s := range stmts {
				got = append(got, piece{s.Text, s.Offset})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Split(%q) = %+v, want %+v", tt.input, got, tt.want)
			}
			for _, s := range stmts {
				if tt.input[s.Offset:s.Offset+len(s.Text)] != s.Text {
					t.Errorf("Split(%q): %q not at offset %d", tt.input, s.Text, s.Offset)
				}
			}
		})
	}
}

func TestSplitEmptyIsNotNil(t *testing.T) {
	if got := plan.Split("-- x"); got == nil || len(got) != 0 {
		t.Errorf("Split(comment) = %#v, want an empty non-nil slice", got)
	}
}

func TestSplitClassifies(t *testing.T) {
	got := plan.Split("BEGIN; INSERT INTO t VALUES (1) RETURNING a; COMMIT")
	want := []plan.Statement{
		{Text: "BEGIN", Offset: 0, Kind: plan.KindBegin, Tag: "BEGIN"},
		{Text: "INSERT INTO t VALUES (1) RETURNING a", Offset: 7, Kind: plan.KindInsert,
			Tag: "INSERT", Returning: true},
		{Text: "COMMIT", Offset: 45, Kind: plan.KindCommit, Tag: "COMMIT"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Split = %+v, want %+v", got, want)
	}
}
