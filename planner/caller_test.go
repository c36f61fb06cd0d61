package planner_test

import (
	"strings"
	"testing"

	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/planner/plan"
)

func TestRewriteCalls(t *testing.T) {
	p := planner.New(plan.Catalog{Functions: map[string][]string{
		"rescale": {"save_as"}, "pivot_entity_time": {"time", "agg"},
	}})
	const caller = "mallard_connection := CAST(json_object('id', getvariable('mallard_connection'), 'schema', current_schema(), " +
		"'search_path', current_setting('search_path')) AS VARCHAR)"
	j := func(v string) string { return "coalesce(CAST(to_json(" + v + ") AS VARCHAR), 'null')" }
	tests := []struct{ name, in, want string }{
		{"positional", "SELECT * FROM rescale('wide')",
			"SELECT * FROM rescale(" + j("'wide'") + `, "save_as" := 'null', ` + caller + ")"},
		{"no arguments", "SELECT * FROM rescale()",
			`SELECT * FROM rescale("save_as" := 'null', ` + caller + ")"},
		{"keyword name and list", "SELECT * FROM pivot_entity_time('t', time := ['year', 'month'], agg => 'sum')",
			"SELECT * FROM pivot_entity_time(" + j("'t'") + `, "time" := ` + j("['year', 'month']") + `, "agg" := ` + j("'sum'") + ", " + caller + ")"},
		{"nested call", "SELECT * FROM rescale(concat('a', 'b'), save_as := lower('X'))",
			"SELECT * FROM rescale(" + j("concat('a', 'b')") + `, "save_as" := ` + j("lower('X')") + ", " + caller + ")"},
		{"two calls", "SELECT * FROM rescale('a') JOIN rescale('b') USING (t)",
			"SELECT * FROM rescale(" + j("'a'") + `, "save_as" := 'null', ` + caller + ") JOIN rescale(" + j("'b'") + `, "save_as" := 'null', ` + caller + ") USING (t)"},
		{"upper case", "SELECT * FROM RESCALE('a')", "SELECT * FROM RESCALE(" + j("'a'") + `, "save_as" := 'null', ` + caller + ")"},
		{"in a string", "SELECT * FROM t WHERE x = 'rescale(1)'", "SELECT * FROM t WHERE x = 'rescale(1)'"},
		{"other function", "SELECT * FROM rescaled(1)", "SELECT * FROM rescaled(1)"},
		{"already rewritten", "SELECT * FROM rescale('a', mallard_connection := 3)", "SELECT * FROM rescale('a', mallard_connection := 3)"},
		{"unclosed", "SELECT * FROM rescale('a'", "SELECT * FROM rescale('a'"},
		{"unknown named argument", "SELECT * FROM rescale('a', bogus := 1, \"It's\" := 2)",
			"SELECT * FROM rescale(" + j("'a'") + `, "save_as" := 'null', ` + strings.Replace(caller, ") AS VARCHAR)",
				", 'unknown', ['bogus', 'It''s']) AS VARCHAR)", 1) + ")"},
	}
	positional := planner.New(plan.Catalog{Functions: map[string][]string{"forecast": {"steps"}},
		Positional: map[string][]string{"forecast": {"model"}}})
	withCount := func(n string) string {
		return strings.Replace(caller, ") AS VARCHAR)", ", 'positional', "+n+") AS VARCHAR)", 1)
	}
	for _, tt := range []struct{ name, in, want string }{
		{"as many positional as declared", "SELECT * FROM forecast('m', steps := 2)",
			"SELECT * FROM forecast(" + j("'m'") + `, "steps" := ` + j("2") + ", " + caller + ")"},
		{"one positional too many", "SELECT * FROM forecast('m', 4)",
			"SELECT * FROM forecast(" + j("'m'") + `, "steps" := 'null', ` + withCount("2") + ")"},
		{"no positional", "SELECT * FROM forecast(steps := 4)",
			`SELECT * FROM forecast('null', "steps" := ` + j("4") + ", " + withCount("0") + ")"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := positional.PlanOne(tt.in).Text; got != tt.want {
				t.Errorf("PlanOne(%q).Text =\n  %q\nwant\n  %q", tt.in, got, tt.want)
			}
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.PlanOne(tt.in).Text; got != tt.want {
				t.Errorf("PlanOne(%q).Text =\n  %q\nwant\n  %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRewriteCallerScalars(t *testing.T) {
	p := planner.New(plan.Catalog{Scalars: []string{"recommendations"}})
	const caller = "CAST(json_object('id', getvariable('mallard_connection'), 'schema', current_schema(), " +
		"'search_path', current_setting('search_path')) AS VARCHAR)"
	tests := []struct{ name, in, want string }{
		{"arguments keep their types", "SELECT recommendations('m', u.id, 5) FROM u",
			"SELECT recommendations(" + caller + ", 'm', u.id, 5) AS \"recommendations\" FROM u"},
		{"upper case, nested", "SELECT unnest(RECOMMENDATIONS('m', lower(x), 5))",
			"SELECT unnest(RECOMMENDATIONS(" + caller + ", 'm', lower(x), 5)) AS \"unnest\""},
		{"no arguments", "SELECT recommendations() FROM t", "SELECT recommendations(" + caller + ") AS \"recommendations\" FROM t"},
		{"qualified is another function", "SELECT s.recommendations(1) FROM t", "SELECT s.recommendations(1) AS \"recommendations\" FROM t"},
		{"a column of that name", "SELECT recommendations FROM t", "SELECT recommendations FROM t"},
		{"already rewritten", "SELECT recommendations(getvariable('mallard_connection'), 'm', 1, 2) FROM t",
			"SELECT recommendations(getvariable('mallard_connection'), 'm', 1, 2) AS \"recommendations\" FROM t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.PlanOne(tt.in).Text; got != tt.want {
				t.Errorf("PlanOne(%q).Text =\n  %q\nwant\n  %q", tt.in, got, tt.want)
			}
		})
	}
}
