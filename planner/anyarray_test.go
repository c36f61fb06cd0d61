package planner_test

import (
	"fmt"
	"testing"
)

func TestAnyArrayParamRewrite(t *testing.T) {
	p := testPlanner()
	tests := []struct {
		in     string
		types  []string
		want   string
		params string // ArrayParams
	}{
		{"SELECT id FROM t WHERE name = ANY($1)", nil, "WHERE list_contains($1, name)", "[0]"},
		{"SELECT id FROM t WHERE a = $1 AND d <> ALL($2)", nil, "list_contains($2, d)", "[1]"},
		{"SELECT id FROM t WHERE name = ANY($1)", []string{"VARCHAR[]"}, "name = ANY($1::varchar[])", "[]"},
		{"SELECT id FROM t WHERE name = ANY($1)", []string{"DECIMAL(10,2)[]"}, "name = ANY($1::numeric(10, 2)[])", "[]"},
		{"SELECT id FROM t WHERE name = ANY($1::text[])", nil, "name = ANY($1::text[])", "[]"},
		{"SELECT id FROM t WHERE name = ANY(ARRAY[$1])", nil, "name = ANY(ARRAY[$1])", "[]"},
		{"SELECT id FROM t WHERE d = ANY('{2024-01-01,NULL}')", nil, "d IN ('2024-01-01', NULL)", "[]"},
		{"SELECT id FROM t WHERE d <> ALL('{\"a b\",c}')", nil, "d NOT IN ('a b', 'c')", "[]"},
		{"SELECT id FROM t WHERE d = ANY('{}')", nil, "WHERE false", "[]"},
		{"SELECT id FROM t WHERE d <> ALL('{}')", nil, "WHERE true", "[]"},
		{"SELECT id FROM t WHERE d = ANY('{{1,2},{3,4}}')", nil, "d = ANY(ARRAY[ARRAY['1', '2'], ARRAY['3', '4']])", "[]"},
		{"SELECT id FROM t WHERE d > ANY('{1,2}')", nil, "d > ANY(ARRAY['1', '2'])", "[]"},
	}
	for _, tt := range tests {
		st := p.PlanParse(tt.in, tt.types)
		checkRewrite(t, tt.in, st.Text, []string{tt.want}, nil)
		if got := fmt.Sprint(append([]int{}, st.ArrayParams...)); got != tt.params {
			t.Errorf("%q: ArrayParams %s, want %s", tt.in, got, tt.params)
		}
	}
}
