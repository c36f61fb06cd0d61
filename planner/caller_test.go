package planner_test

import (
	"testing"

	"github.com/mallard/mallard/planner"
)

func TestPassCaller(t *testing.T) {
	p := planner.New(planner.Catalog{Functions: []string{"rescale", "pivot_entity_time"}})
	const arg = "mallard_connection := getvariable('mallard_connection')"
	tests := []struct{ name, in, want string }{
		{"positional", "SELECT * FROM rescale('wide')", "SELECT * FROM rescale('wide', " + arg + ")"},
		{"no arguments", "SELECT * FROM rescale()", "SELECT * FROM rescale(" + arg + ")"},
		{"duckdb list syntax", "SELECT * FROM pivot_entity_time('t', time := ['year', 'month'])",
			"SELECT * FROM pivot_entity_time('t', time := ['year', 'month'], " + arg + ")"},
		{"nested call", "SELECT * FROM rescale((SELECT 'w'), columns := list_value('a'))",
			"SELECT * FROM rescale((SELECT 'w'), columns := list_value('a'), " + arg + ")"},
		{"two calls", "SELECT * FROM rescale('a') JOIN rescale('b') USING (t)",
			"SELECT * FROM rescale('a', " + arg + ") JOIN rescale('b', " + arg + ") USING (t)"},
		{"upper case", "SELECT * FROM RESCALE('a')", "SELECT * FROM RESCALE('a', " + arg + ")"},
		{"in a string", "SELECT * FROM t WHERE x = 'rescale(1)'", "SELECT * FROM t WHERE x = 'rescale(1)'"},
		{"other function", "SELECT * FROM rescaled(1)", "SELECT * FROM rescaled(1)"},
		{"already passed", "SELECT * FROM rescale('a', mallard_connection := 3)", "SELECT * FROM rescale('a', mallard_connection := 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.PlanOne(tt.in).Text; got != tt.want {
				t.Errorf("PlanOne(%q).Text =\n  %q\nwant\n  %q", tt.in, got, tt.want)
			}
		})
	}
}
