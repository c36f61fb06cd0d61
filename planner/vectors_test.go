package planner_test

import "testing"

// TestVectorSubscripts checks which subscripts the planner shifts to DuckDB's
// numbering: those of the catalog's int2vector and oidvector columns, of
// aliases of them and of casts to those types, and no others.
func TestVectorSubscripts(t *testing.T) {
	const first = "mallard_catalog.pg.mallard_first_subscript("
	p := testPlanner()
	tests := []struct {
		name, in string
		want     []string // substrings of the rewritten text
		not      []string // substrings that must be absent
	}{
		{"indkey subscript", "SELECT i.indkey[0] FROM pg_index i",
			[]string{"i.indkey[(0 + 1) - " + first + "i.indkey)]"}, nil},
		{"proargtypes subscript", "SELECT p.proargtypes[$1] FROM pg_proc p",
			[]string{"p.proargtypes[($1 + 1) - " + first + "p.proargtypes)]"}, nil},
		{"alias of indoption outside its subquery",
			"SELECT tmp.I_INDOPTION[tmp.pos - 1] & 1::smallint FROM (SELECT i.indoption AS I_INDOPTION, 1 AS pos FROM pg_index i) tmp",
			[]string{"tmp.i_indoption[((tmp.pos - 1) + 1) - " + first + "tmp.i_indoption)]"}, nil},
		{"alias of an alias", "SELECT y.b[1] FROM (SELECT x.a AS b FROM (SELECT indkey AS a FROM pg_index) x) y",
			[]string{"y.b[(1 + 1) - " + first + "y.b)]"}, nil},
		{"cast to int2vector", "SELECT ('1 2'::int2vector)[0]",
			[]string{"('1 2'::pg_int2vector_elem[])[(0 + 1) - " + first + "'1 2'::pg_int2vector_elem[])]"}, nil},
		{"cast to oidvector", "SELECT '23 25'::pg_catalog.oidvector", []string{"'23 25'::pg_oidvector_elem[]"}, nil},
		{"generate_subscripts in a select list", "SELECT generate_subscripts(ix.indkey, 1) AS ord FROM pg_index ix",
			[]string{"generate_subscripts(ix.indkey, 1) + (" + first + "ix.indkey) - 1) AS ord"}, nil},
		{"other arrays untouched", "SELECT c.conkey[1], s[2], m['k'] FROM pg_constraint c, t", nil, []string{first}},
		{"slice untouched", "SELECT indkey[0:1] FROM pg_index", nil, []string{first}},
		{"generate_subscripts in FROM", "SELECT s FROM pg_index i, generate_subscripts(i.indkey, 1) s",
			[]string{"unnest(generate_series(" + first + "i.indkey), (" + first + "i.indkey) + array_length(i.indkey, 1)::int) - 1)::int[]) s(s)"},
			[]string{"generate_subscripts("}},
		{"generate_subscripts in FROM without an alias", "SELECT * FROM pg_index i, generate_subscripts(i.indkey, 1)",
			[]string{") generate_subscripts(generate_subscripts)"}, nil},
		{"generate_subscripts in FROM of a second dimension untouched", "SELECT * FROM generate_subscripts(ARRAY[[1]], 2) s",
			[]string{"generate_subscripts(ARRAY[ARRAY[1]], 2)"}, []string{first}},
		{"generate_subscripts of another array untouched", "SELECT generate_subscripts(conkey, 1) FROM pg_constraint", nil, []string{first}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkRewrite(t, tc.in, p.PlanOne(tc.in).Text, tc.want, tc.not)
		})
	}
}
