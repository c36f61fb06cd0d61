package planner_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mallard/mallard/planner/plan"
)

// TestSetConfigCalls: a SELECT of nothing but set_config() calls, with
// names and values that are constants or parameters, is a KindSetConfig
// statement with one Setting per call; anything more goes to DuckDB.
func TestSetConfigCalls(t *testing.T) {
	p := testPlanner()
	tests := []struct {
		in   string
		want []plan.Setting
	}{
		{"SELECT set_config('search_path', $1, true), set_config('role', $2, true), set_config('request.method', $3, true)",
			[]plan.Setting{{Name: "search_path", ValueParam: 1, Local: true}, {Name: "role", ValueParam: 2, Local: true},
				{Name: "request.method", ValueParam: 3, Local: true}}},
		{"select set_config($1, $2, true) AS app", []plan.Setting{{NameParam: 1, ValueParam: 2, Local: true, Column: "app"}}},
		{"SELECT set_config('MyApp.X', $1::text, 'on')", []plan.Setting{{Name: "myapp.x", ValueParam: 1, Local: true}}},
		{"SELECT set_config('myapp.x', NULL, false)", []plan.Setting{{Name: "myapp.x", Default: true}}},
		{"SELECT set_config('a.b', 'v', NULL)", []plan.Setting{{Name: "a.b", Value: "v"}}},
	}
	for _, tt := range tests {
		st := p.PlanParse(tt.in, nil)
		if st.Kind != plan.KindSetConfig || st.Tag != "SELECT" || !reflect.DeepEqual(st.SetConfig, tt.want) ||
			st.Setting == nil || *st.Setting != tt.want[0] {
			t.Errorf("%q: %v %q, calls %+v, want %+v", tt.in, st.Kind, st.Tag, st.SetConfig, tt.want)
		}
	}
	for _, q := range []string{
		"SELECT set_config('a.b', 'v', false), 1",
		"SELECT set_config('a.b', 'v', false) FROM t",
		"SELECT set_config('a.b', 'v', false) LIMIT 0",
		"SELECT set_config('a.b', upper($1), false)",
		"SELECT set_config('a.b', 'v', $1)",
		"SELECT set_config(NULL, 'v', false)",
		"SELECT set_config(1, 'v', false)",
		"SELECT set_config('a.b', 'v', false) UNION ALL SELECT 'x'",
	} {
		if st := p.PlanParse(q, nil); st.Kind == plan.KindSetConfig || st.SetConfig != nil || st.Setting != nil {
			t.Errorf("%q: planned as %v with %+v; only set_config() calls of constants and parameters are", q, st.Kind, st.SetConfig)
		}
	}
}

// TestQualifiedStar: DuckDB refuses schema.table.*, which PostgREST sends;
// table.* names the same FROM item.
func TestQualifiedStar(t *testing.T) {
	p := testPlanner()
	tests := []struct{ in, want string }{
		{`SELECT "api"."todos".* FROM "api"."todos"`, "todos.*"},
		{`SELECT count(db.api.todos.*) FROM db.api.todos`, "todos.*"},
	}
	for _, tt := range tests {
		st := p.PlanOne(tt.in)
		if !st.Rewritten || !strings.Contains(st.Text, tt.want) || strings.Contains(st.Text, "api.todos.*") {
			t.Errorf("%q became %q, want %s", tt.in, st.Text, tt.want)
		}
	}
	for _, q := range []string{"SELECT todos.* FROM api.todos", "SELECT api.todos.id FROM api.todos"} {
		if st := p.PlanOne(q); st.Text != q {
			t.Errorf("%q became %q", q, st.Text)
		}
	}
}
