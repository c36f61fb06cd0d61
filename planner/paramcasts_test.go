package planner_test

import (
	"slices"
	"testing"

	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/planner/plan"
)

// TestParamCasts: the types a statement casts its parameters to, whether
// the Postgres parser reads it or not (window := 4 names an argument like
// a reserved word, as train_gat's does).
func TestParamCasts(t *testing.T) {
	p := planner.New(plan.Catalog{})
	tests := []struct {
		in   string
		want []string
	}{
		{"SELECT * FROM t WHERE a = $1", nil},
		{"SELECT $2::int, $1::text", []string{"text", "int4"}},
		{"SELECT * FROM f(a := $1::bigint[])", []string{"int8[]"}},
		{"SELECT * FROM train_gat($1, epochs := $3::int, window := 4)", []string{"", "", "int4"}},
		{"SELECT * FROM f(window := $2::double precision, b := $1::boolean)", []string{"bool", "float8"}},
	}
	for _, tt := range tests {
		if got := p.PlanParse(tt.in, nil).ParamCasts; !slices.Equal(got, tt.want) {
			t.Errorf("PlanParse(%q).ParamCasts = %q, want %q", tt.in, got, tt.want)
		}
	}
}
