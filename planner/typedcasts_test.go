package planner_test

import "testing"

// TestPostgresTypedCasts checks the rewrites that give expressions Postgres
// types DuckDB lacks (storage's aliases): char(n) and varchar(n) casts,
// reg* values and jsonb in a select list, and money.
func TestPostgresTypedCasts(t *testing.T) {
	p := testPlanner()
	tests := []struct {
		name, in string
		want     []string // substrings of the rewritten text
		not      []string // substrings that must be gone
	}{
		{"char(n) pads", "SELECT 'a'::char(3)", []string{`rpad('a'::text, 3, ' ')::pg_bpchar AS bpchar`}, nil},
		{"varchar(n) cuts", "SELECT x::character varying(2) FROM t", []string{`"left"(x::text, 2)::pg_varchar AS x`}, nil},
		{"char alone is char(1)", "SELECT 'abc'::char", []string{`rpad('abc'::text, 1, ' ')::pg_bpchar`}, nil},
		{"bpchar has no length", "SELECT 'a '::bpchar, 'b'::varchar", []string{`'a '::pg_bpchar`, `'b'::pg_varchar`}, []string{"rpad"}},
		{"varchar of a column", "SELECT n::varchar FROM t", []string{`n::text::pg_varchar`}, nil},
		{"parameter typed as the alias", "SELECT $1::varchar(3), $2::varchar", []string{`"left"($1::pg_varchar, 3)::pg_varchar`, `$2::pg_varchar`}, []string{"$2::text"}},
		{"bpchar compares without trailing spaces", "SELECT 1 FROM t WHERE c::char(3) = 'a  '",
			[]string{`rpad(c::text, 3, ' ')::pg_bpchar::text = 'a'`}, nil},
		{"text rules see the client's cast", "SELECT octet_length('x'::varchar)", []string{"strlen("}, nil},
		{"table definition untouched", "CREATE TABLE t (c varchar(10) DEFAULT 'x'::varchar)", nil, []string{"pg_varchar"}},
		{"arrays untouched", "SELECT '{a}'::varchar(2)[]", nil, []string{"pg_varchar", "left"}},
		{"regtype name shown", "SELECT 'int4'::regtype",
			[]string{`mallard_catalog.pg.mallard_regtype_name(mallard_catalog.pg.mallard_regtype('int4'))::pg_regtype AS regtype`}, nil},
		{"regclass column shown", "SELECT c.oid::regclass FROM pg_class c",
			[]string{`mallard_catalog.pg.mallard_regclass_name(c.oid)::pg_regclass AS oid`}, nil},
		{"regproc name shown", "SELECT 'pg_catalog.now'::regproc", []string{`'now'::pg_regproc AS regproc`}, nil},
		{"regnamespace number shown", "SELECT 11::regnamespace", []string{`mallard_regnamespace_name(11)::pg_regnamespace`}, nil},
		{"regtype in both arms", "SELECT 'int4'::regtype UNION SELECT 'text'::regtype",
			[]string{`::pg_regtype AS regtype UNION SELECT`, `mallard_regtype('text'))::pg_regtype`}, nil},
		{"regclass name in a subquery stays an oid", "SELECT (SELECT 'pg_class'::regclass) = 1259", nil, []string{"pg_regclass", "regclass_name"}},
		{"regtype as text", "SELECT 'int4'::regtype::text", []string{"mallard_regtype_name("}, []string{"pg_regtype"}},
		{"jsonb cast", `SELECT '{}'::jsonb`, []string{`'{}'::"json"::pg_jsonb AS jsonb`}, nil},
		{"jsonb arrow", `SELECT '{"a":1}'::jsonb -> 'a' -> 'b'`, []string{`(('{"a":1}'::"json" -> 'a') -> 'b')::pg_jsonb`}, nil},
		{"jsonb text arrow", `SELECT j::jsonb ->> 'a' FROM t`, nil, []string{"pg_jsonb"}},
		{"jsonb inside stays JSON", `SELECT jsonb_build_object('a', '{}'::jsonb)`,
			[]string{`"json_object"('a', '{}'::"json")::pg_jsonb AS jsonb_build_object`}, []string{`'{}'::"json"::pg_jsonb`}},
		{"jsonb of a json column", "SELECT j -> 'a' FROM t", nil, []string{"pg_jsonb"}},
		{"money cast", "SELECT 12.5::money", []string{"(12.5)::pg_money"}, nil},
		{"money to numeric", "SELECT 12.5::money::numeric", []string{"::pg_money::numeric(18, 2)"}, nil},
		{"money arithmetic", "SELECT a::money + b::money * 2 FROM t", []string{"(a::pg_money + (b::pg_money * 2)::pg_money)::pg_money"}, nil},
		{"money ratio is float8", "SELECT a::money / b::money FROM t", nil, []string{")::pg_money"}},
		{"money column", "CREATE TABLE w (m money)", []string{"m pg_money"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRewrite(t, tt.in, p.PlanOne(tt.in).Text, tt.want, tt.not)
		})
	}
}
