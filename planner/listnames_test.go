package planner_test

import "testing"

func TestListLiteralColumnNames(t *testing.T) {
	p := testPlanner()
	tests := []struct{ in, want string }{
		{"SELECT count(*) FROM pivot_entity_time('ev', entity := 'k', time := ['y'], value := 'x')",
			`SELECT count(*) AS "count" FROM pivot_entity_time('ev', entity := 'k', time := ['y'], value := 'x')`},
		{"SELECT sum(x), [1, 2], [3] AS L, x[1] FROM t WHERE y IN [1, 2]",
			`SELECT sum(x) AS "sum", [1, 2], [3] AS l, x[1] AS "x" FROM t WHERE y IN [1, 2]`},
		{"FROM t SELECT count(*)", "FROM t SELECT count(*)"},
		{"SELECT count(*) FROM f(time := 'y')", `SELECT count(*) AS "count" FROM f(time := 'y')`},
	}
	for _, tt := range tests {
		if got := p.PlanOne(tt.in).Text; got != tt.want {
			t.Errorf("%q\n-> %q\nwant %q", tt.in, got, tt.want)
		}
	}
}
