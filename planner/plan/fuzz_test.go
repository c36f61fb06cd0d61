package plan_test

import (
	"strings"
	"testing"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

func FuzzSplit(f *testing.F) {
	seeds := []string{
		"",
		"SELECT 1; SELECT 2;",
		"SELECT 'a;''b'; SELECT E'\\';'",
		`SELECT "x;""y"; -- c;` + "\n;",
		"SELECT /* a /* b; */ c */ 1; /* unterminated",
		"SELECT $t$ ; $$ $t$; SELECT $1; $",
		"WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a RETURNING *",
		"(SELECT 1;) ); ROLLBACK TO s; CREATE TABLE t AS SELECT 1",
		"SELECT 'é'; E'",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		for _, s := range plan.Split(query) {
			if s.Offset < 0 || s.Offset+len(s.Text) > len(query) || query[s.Offset:s.Offset+len(s.Text)] != s.Text {
				t.Fatalf("Split(%q): %q not at offset %d", query, s.Text, s.Offset)
			}
			if s.Text == "" || strings.Trim(s.Text, " \t\n\r\f\v") != s.Text {
				t.Fatalf("Split(%q): statement %q is empty or untrimmed", query, s.Text)
			}
			if s.Kind == plan.KindEmpty {
				t.Fatalf("Split(%q): statement %q has KindEmpty", query, s.Text)
			}
		}
	})
}

func FuzzParseCopy(f *testing.F) {
	seeds := []string{
		"COPY t FROM STDIN",
		`COPY public.t (a, "B c") FROM STDIN WITH (FORMAT csv, HEADER, DELIMITER E'\t', FORCE_QUOTE *)`,
		`COPY (SELECT 1) TO STDOUT WITH CSV HEADER QUOTE AS '"' ESCAPE AS '\' FORCE QUOTE a, b`,
		"COPY t FROM 'f.csv'",
		"COPY t FROM STDIN (NULL $x$\\N$x$, ENCODING 'utf8')",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, ok, err := plan.ParseCopy(text)
		if err != nil {
			if sqlstate.CodeOf(err) == "" {
				t.Fatalf("ParseCopy(%q) error %v has no SQLSTATE", text, err)
			}
			return
		}
		if !ok {
			return
		}
		if len(c.Delimiter) != 1 || c.Format != "text" && c.Format != "csv" {
			t.Fatalf("ParseCopy(%q) = %#v, which breaks its invariants", text, c)
		}
		if c.Format == "csv" && (len(c.Quote) != 1 || len(c.Escape) != 1) {
			t.Fatalf("ParseCopy(%q) = %#v, which lacks a csv quote or escape", text, c)
		}
	})
}
