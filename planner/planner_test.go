package planner_test

import (
	"strings"
	"testing"

	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/planner/plan"
)

// checkRewrite fails t unless got, the rewrite of in, contains every
// substring of want and none of not.
func checkRewrite(t *testing.T, in, got string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%q\n-> %q\nwant it to contain %q", in, got, w)
		}
	}
	for _, n := range not {
		if strings.Contains(got, n) {
			t.Errorf("%q\n-> %q\nwant no %q", in, got, n)
		}
	}
}

func testPlanner() *planner.Planner {
	return planner.New(plan.Catalog{
		Database: "mallard_catalog", PGSchema: "pg", InfoSchema: "info",
		Views:      []string{"pg_class", "pg_namespace", "pg_type", "pg_attribute"},
		InfoViews:  []string{"tables", "columns"},
		Macros:     []string{"format_type", "pg_get_userbyid", "mallard_regclass", "version"},
		InfoMacros: []string{"_pg_expandarray"},
	})
}

func TestRewrites(t *testing.T) {
	p := testPlanner()
	tests := []struct {
		name, in string
		want     []string // substrings of the rewritten text
		not      []string // substrings that must be gone
	}{
		{"pg_catalog relation", "SELECT relname FROM pg_catalog.pg_class c", []string{"mallard_catalog.pg.pg_class"}, nil},
		{"unqualified relation", "SELECT * FROM pg_namespace", []string{"mallard_catalog.pg.pg_namespace"}, nil},
		{"information_schema", "SELECT table_name FROM information_schema.tables", []string{"mallard_catalog.info.tables"}, nil},
		{"user table untouched", "SELECT * FROM pg_class_like_user_table", nil, []string{"mallard_catalog"}},
		{"macro", "SELECT pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_attribute a", []string{"mallard_catalog.pg.format_type(", "mallard_catalog.pg.pg_attribute"}, nil},
		{"pg_catalog function stripped", "SELECT pg_catalog.lower('A')", []string{"lower('A')"}, []string{"pg_catalog"}},
		{"regclass literal", "SELECT 'public.t'::regclass", []string{"mallard_catalog.pg.mallard_regclass('public.t')"}, []string{"regclass'"}},
		{"regclass column in where", "SELECT 1 FROM pg_class c WHERE c.oid = x::pg_catalog.regclass", []string{"x::bigint"}, []string{"regclass"}},
		{"regex operator", "SELECT 1 WHERE 'abc' OPERATOR(pg_catalog.~) '^(a.*)$'", []string{"regexp_matches('abc', '^(a.*)$')"}, []string{"OPERATOR"}},
		{"negated case-insensitive regex", "SELECT 1 WHERE 'abc' !~* 'B'", []string{"NOT regexp_matches('abc', 'B', 'i')"}, nil},
		{"prefix ~ is bitwise not", "SELECT OPERATOR(pg_catalog.~) 5", []string{"~ 5"}, []string{"regexp_matches", "OPERATOR"}},
		{"collate default", "SELECT relname COLLATE pg_catalog.default FROM pg_class", []string{"SELECT relname AS relname FROM"}, []string{"COLLATE"}},
		{"regtype parameter", "SELECT oid::regtype::text FROM pg_type t WHERE t.oid = $1::regtype", []string{"mallard_catalog.pg.mallard_regtype($1::varchar)", "mallard_catalog.pg.mallard_regtype_name(oid)"}, []string{"::regtype"}},
		{"regtype array of oids", "SELECT COALESCE(proallargtypes::regtype[], proargtypes::regtype[])::text[] FROM pg_proc",
			[]string{"mallard_catalog.pg.mallard_regtype_names(proallargtypes)::pg_regtype[]", "mallard_regtype_names(proargtypes)::pg_regtype[])::text[]"}, []string{"::regtype"}},
		{"extract", "SELECT extract(year FROM ts) FROM pg_class", []string{"date_part('year', ts)"}, nil},
		{"information_schema function", "SELECT (information_schema._pg_expandarray(i.indkey)).n FROM pg_index i", []string{"mallard_catalog.info._pg_expandarray(i.indkey)"}, nil},
		{"like default escape", `SELECT 1 FROM t WHERE name LIKE 'java\_%'`, []string{`like_escape(name, `}, nil},
		{"regproc literal", "SELECT 1 FROM pg_type WHERE typinput = 'pg_catalog.array_in'::regproc", []string{"typinput = 'array_in'"}, []string{"regproc"}},
		{"json functions", "SELECT json_build_object('a', 1)", []string{`"json_object"('a', 1)`}, nil},
		{"typed aggregates", "SELECT sum(x), pg_catalog.avg(y), round(z), sign(z), date_trunc('day', d) FROM t",
			[]string{"mallard_catalog.pg.mallard_pg_sum(x)", "mallard_catalog.pg.mallard_pg_avg(y)", "mallard_catalog.pg.mallard_pg_round(z, z)", "mallard_catalog.pg.mallard_pg_sign(z, z)", "mallard_catalog.pg.mallard_pg_date_trunc('day', d, d)"}, nil},
		{"left to DuckDB: aggregates a macro cannot take", "SELECT sum(DISTINCT x), sum(x ORDER BY y), round(z, 2), date_trunc('day', d, 'UTC') FROM t",
			nil, []string{"mallard_pg"}},
		{"filtered aggregate", "SELECT avg(y) FILTER (WHERE y > 0) FROM t", []string{"mallard_catalog.pg.mallard_pg_avg(CASE WHEN y > 0 THEN y END)"}, []string{"FILTER"}},
		{"window sum typed by its argument", "SELECT sum(x) OVER (PARTITION BY g) FROM t", []string{"mallard_catalog.pg.mallard_pg_sum_window(sum(x) OVER (PARTITION BY g), x)"}, nil},
		{"left to DuckDB: window avg", "SELECT avg(x) OVER () FROM t", []string{"avg(x) OVER ()"}, []string{"mallard_pg"}},
		{"difference of dates", "SELECT d1 - d2, d - '2024-01-01'::date FROM t", []string{"mallard_catalog.pg.mallard_pg_minus(d1, d2, d1, d2)", "mallard_catalog.pg.mallard_pg_minus(d, '2024-01-01'::date, d, '2024-01-01'::date)"}, nil},
		{"left to DuckDB: subtractions that are not of dates", "SELECT d - 1, d - interval '1 day', $1 - d, -d FROM t", nil, []string{"mallard_pg"}},
		{"aggregate, window or parameter arguments", "SELECT round(avg(x)), max(a) - min(b), sign(row_number() OVER ()), date_trunc('day', $1), sum(sum(x)) OVER () FROM t GROUP BY g",
			[]string{"SELECT round(mallard_catalog.pg.mallard_pg_avg(x))", " sign(row_number() OVER ())", " date_trunc('day', $1)", " sum(mallard_catalog.pg.mallard_pg_sum(x)) OVER ()"}, []string{"mallard_pg_round", "mallard_pg_sign", "mallard_pg_date_trunc", "mallard_pg_sum_window"}},
		{"type-keeping aggregates witness their argument's type", "SELECT max(a) - min(b), date_trunc('month', min(d)), round(max(x)) FROM t",
			[]string{"mallard_pg_minus(max(a), min(b), a, b)", "mallard_pg_date_trunc('month', min(d), d)", "mallard_pg_round(max(x), x)"}, nil},
		{"scalar arguments", "SELECT round(abs(x) + 1), sum(length(s)), sign((SELECT max(x) FROM u)), sign(round(x)), d1 - $1::date FROM t",
			[]string{"mallard_pg_round(abs(x) + 1, abs(x) + 1)", "mallard_pg_sum(length(s)::int)", "mallard_pg_sign((SELECT max(x)", "mallard_pg_sign(mallard_catalog.pg.mallard_pg_round(x, x), mallard_catalog.pg.mallard_pg_round(x, x))", "mallard_pg_minus(d1, $1::date, d1, $1::date)"}, nil},
		{"left to DuckDB: views", "CREATE VIEW v AS SELECT sum(x), d1 - d2 FROM t", nil, []string{"mallard_pg"}},
		{"session_user", "SELECT current_schema(), session_user", []string{"COALESCE(getvariable('mallard_pg_session_authorization'), 'mallard')"}, nil},
		{"regclass of format()", "SELECT format('%I.%I', s, t)::regclass::oid", []string{"mallard_regclass(concat("}, nil},
		{"set-returning function alias", "SELECT s FROM generate_series(1, 3) AS s", []string{"generate_series(1, 3) s(s)"}, nil},
		{"to_char", `SELECT to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US "at" Mon')`, []string{`strftime(ts, '%Y-%m-%d %H:%M:%S.%f at %b')`}, nil},
		{"to_timestamp", `SELECT to_timestamp('2024-01-02 03:04:05', 'YYYY-MM-DD HH24:MI:SS')`, []string{`strptime('2024-01-02 03:04:05', '%Y-%m-%d %H:%M:%S')`}, nil},
		{"format", `SELECT format('%I.%I is %L, 100%%', s, t, v)`, []string{`concat(mallard_catalog.pg.quote_ident(s::text), '.', mallard_catalog.pg.quote_ident(t::text), ' is ', mallard_catalog.pg.quote_literal(v::text), ', 100%')`}, nil},
		{"oid cast", "SELECT 1::oid, 'x'::name", []string{"1::bigint", "'x'::varchar"}, nil},
		{"current_setting of a parameter", "SELECT current_setting('TimeZone')", []string{"COALESCE((SELECT value FROM duckdb_variables() WHERE name = 'mallard_pg_timezone'), 'UTC')"}, nil},
		{"current_setting missing_ok", "SELECT current_setting('no_such', true)", []string{"(SELECT value FROM duckdb_settings() WHERE name = 'no_such')"}, nil},
		{"tableoid of a catalog relation", "SELECT c.tableoid, n.oid FROM pg_catalog.pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.tableoid > 0",
			[]string{"(SELECT oid FROM mallard_catalog.pg.mallard_catalog_relations WHERE nspname = 'pg_catalog' AND relname = 'pg_class') AS tableoid",
				"WHERE (SELECT oid FROM mallard_catalog.pg.mallard_catalog_relations"}, []string{"c.tableoid"}},
		{"unqualified tableoid", "SELECT tableoid FROM pg_type", []string{"relname = 'pg_type') AS tableoid"}, nil},
		{"tableoid of a user table", "SELECT t.tableoid FROM pg_type p, t", []string{"t.tableoid"}, []string{"mallard_catalog_relations"}},
		{"current_setting of a customized option", "SELECT current_setting('MyApp.User_Id')",
			[]string{`COALESCE((SELECT value FROM duckdb_variables() WHERE name = 'mallard_pg_myapp.user_id'), error('unrecognized configuration parameter "MyApp.User_Id" (SQLSTATE 42704)'))`}, nil},
		{"current_setting of a customized option, missing_ok", "SELECT current_setting('myapp.user_id', true) AS uid",
			[]string{"(SELECT value FROM duckdb_variables() WHERE name = 'mallard_pg_myapp.user_id') AS uid"}, []string{"error(", "duckdb_settings"}},
		{"division by zero", "SELECT a / b, a % 2, mod(a, b) FROM t",
			[]string{"a / CASE WHEN b = 0 THEN error('division by zero (SQLSTATE 22012)') ELSE b END", "a % 2", "mod(a, CASE WHEN b = 0"}, nil},
		{"string divisor", "SELECT 1 / 'a'", nil, nil},
		{"volatile divisor", "SELECT 1 / random()", nil, nil},
		{"extract", "SELECT extract(second FROM ts), date_part('ms', ts) FROM t",
			[]string{"date_part('microseconds', ts)::numeric(38, 0) * 0.000001", "date_part('microseconds', ts)::double precision / 1000"}, nil},
		{"boolean literal", "SELECT 'yes'::boolean, ' of '::bool", []string{"true::boolean", "false::bool"}, []string{"yes"}},
		{"array literal", `SELECT '{1,"a b",NULL}'::text[]`, []string{"ARRAY['1', 'a b', NULL]::text[]"}, nil},
		{"nested array literal", `SELECT '{{1,2},{3,4}}'::int[][], '{ }'::int[], '{a\,b}'::text[]`,
			[]string{"ARRAY[ARRAY['1', '2'], ARRAY['3', '4']]::int[][]", "ARRAY[]::int[]", "ARRAY['a,b']::text[]"}, nil},
		{"array literal in ANY", "SELECT 1 FROM t WHERE name > ANY('{a,b}') OR name = ANY('{a,b}')", []string{"> ANY(ARRAY['a', 'b'])", "name IN ('a', 'b')"}, nil},
		{"unicode escapes", `SELECT U&'\0041'`, []string{"'A'"}, []string{"U&"}},
		{"int4 results", "SELECT length(s), octet_length('x') FROM t", []string{"length(s)::int", "strlen('x')::int"}, nil},
		{"to_hex", "SELECT to_hex(x) FROM t", []string{"lower(CASE WHEN typeof(x) IN ('INTEGER', 'SMALLINT', 'TINYINT') THEN to_hex(x::bigint & 4294967295) ELSE to_hex(x) END)"}, nil},
		{"to_hex of a volatile argument", "SELECT to_hex((random() * 10)::int)", []string{"lower(to_hex((random() * 10)::int))"}, []string{"typeof"}},
		{"regex substring", "SELECT substring(s from 'o(b.)') FROM t", []string{"(regexp_extract_all(s, 'o(b.)', 1))[1]"}, nil},
		{"to_char of a number", "SELECT to_char(x, 'FM999.90') FROM t", []string{"round(x, 2)", "'###.##'"}, []string{"lpad"}},
		{"to_char Day", "SELECT to_char(d, 'FMDD Day') FROM t", []string{"concat(strftime(d, '%-d '), rpad(strftime(d, '%A'), 9, ' '))"}, nil},
		{"to_char in lower case", "SELECT to_char(ts, 'yyyy-mm-dd hh24:mi') FROM t", []string{"strftime(ts, '%Y-%m-%d %H:%M')"}, nil},
		{"to_char of an unconverted pattern", "SELECT to_char(ts, 'SSSS') FROM t", nil, nil},
		{"to_timestamp", "SELECT to_timestamp(s, 'YYYY') FROM t", []string{"strptime(s, '%Y')::timestamp with time zone"}, nil},
		{"initcap", "SELECT initcap(s) FROM t", []string{"list_transform(regexp_extract_all(s, ", "w -> (upper(w[1]) || lower(w[2:]))"}, nil},
		{"justify_days", "SELECT justify_days(i) FROM t", []string{"to_months(", "date_part('day', i) % 30"}, nil},
		{"NULL in a select list", "SELECT NULL, 'x' || NULL", []string{"NULL::text", "('x' || NULL)::text"}, nil},
		{"NULL in a union", "SELECT NULL UNION SELECT 1", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := p.PlanOne(tt.in)
			checkRewrite(t, tt.in, st.Text, tt.want, tt.not)
			untouched := tt.name == "user table untouched" || strings.HasPrefix(tt.name, "left to DuckDB")
			if (len(tt.want) > 0 || len(tt.not) > 0) && !untouched != st.Rewritten {
				t.Errorf("Rewritten = %v", st.Rewritten)
			}
		})
	}
}

func TestPassThrough(t *testing.T) {
	p := testPlanner()
	for _, q := range []string{
		"SELECT a, b FROM t",
		"FROM tbl",
		"PIVOT sales ON year USING sum(units)",
		"SELECT [1, 2, 3] AS l",
		"SELECT * FROM read_parquet('x.parquet')",
		"SELECT * EXCLUDE (a) FROM t",
	} {
		st := p.PlanOne(q)
		if st.Text != q || st.Rewritten {
			t.Errorf("%q became %q", q, st.Text)
		}
	}
}

func TestSettings(t *testing.T) {
	p := testPlanner()
	tests := []struct {
		in   string
		kind plan.Kind
		want plan.Setting
	}{
		{"SET application_name = 'psql'", plan.KindSet, plan.Setting{Name: "application_name", Value: "psql"}},
		{"SET TIME ZONE 'Europe/Paris'", plan.KindSet, plan.Setting{Name: "timezone", Value: "Europe/Paris"}},
		{"SET LOCAL statement_timeout TO 5000", plan.KindSet, plan.Setting{Name: "statement_timeout", Value: "5000", Local: true}},
		{"SET search_path TO public, \"$user\"", plan.KindSet, plan.Setting{Name: "search_path", Value: "public, $user", List: true}},
		{"SET extra_float_digits TO DEFAULT", plan.KindSet, plan.Setting{Name: "extra_float_digits", Default: true}},
		{"RESET DateStyle", plan.KindReset, plan.Setting{Name: "datestyle", Reset: true}},
		{"RESET ALL", plan.KindReset, plan.Setting{Name: "all", Reset: true}},
		{"SHOW server_version", plan.KindShow, plan.Setting{Name: "server_version", Show: true}},
		{"SHOW ALL", plan.KindShow, plan.Setting{Name: "all", Show: true}},
		{"SHOW TRANSACTION ISOLATION LEVEL", plan.KindShow, plan.Setting{Name: "transaction_isolation", Show: true}},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED", plan.KindSet, plan.Setting{Name: "default_transaction_isolation", Value: "read committed"}},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", plan.KindSet, plan.Setting{Name: "transaction"}},
		{"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", plan.KindSet, plan.Setting{Name: "transaction"}},
		{"SELECT set_config('search_path', 'public', false)", plan.KindSetConfig, plan.Setting{Name: "search_path", Value: "public"}},
		{"SET myapp.user_id = 42", plan.KindSet, plan.Setting{Name: "myapp.user_id", Value: "42"}},
		{"SET LOCAL \"MyApp\".x TO 'a', 'b'", plan.KindSet, plan.Setting{Name: "myapp.x", Value: "a, b", List: true, Local: true}},
		{"RESET myapp.user_id", plan.KindReset, plan.Setting{Name: "myapp.user_id", Reset: true}},
		{"SHOW myapp.user_id", plan.KindShow, plan.Setting{Name: "myapp.user_id", Show: true}},
		{"SELECT set_config('request.jwt.claims', '{}', true)", plan.KindSetConfig, plan.Setting{Name: "request.jwt.claims", Value: "{}", Local: true}},
	}
	for _, tt := range tests {
		st := p.PlanOne(tt.in)
		if st.Kind != tt.kind || st.Setting == nil || *st.Setting != tt.want {
			t.Errorf("%q: kind %v setting %+v, want %v %+v", tt.in, st.Kind, st.Setting, tt.kind, tt.want)
		}
	}
}

func TestUnsupportedFeatures(t *testing.T) {
	p := testPlanner()
	for _, q := range []string{"LISTEN chan", "NOTIFY chan", "FETCH BACKWARD 1 FROM c",
		"GRANT admins TO bob", "CREATE ROLE bob", "DO $$ BEGIN END $$",
		"CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$"} {
		if st := p.PlanOne(q); st.Unsupported == "" {
			t.Errorf("%q: not flagged unsupported", q)
		}
	}
	for _, q := range []string{"CREATE MACRO f(a) AS a + 1", "CREATE FUNCTION f(a) AS a + 1", "VACUUM", "SELECT 1", "LOCK TABLE t IN ACCESS SHARE MODE"} {
		if st := p.PlanOne(q); st.Unsupported != "" {
			t.Errorf("%q: flagged unsupported (%s)", q, st.Unsupported)
		}
	}
}

func TestColumnNamesKeepText(t *testing.T) {
	p := testPlanner()
	tests := []struct{ in, want string }{
		{"SELECT count(*), 1, x::int, lower(s), a.b, 'x'::text FROM t a",
			`SELECT count(*) AS "count", 1 AS "?column?", x::int AS "x", lower(s) AS "lower", a.b, 'x'::text AS "text" FROM t a`},
		{"select max(a) -- comment\nfrom t", "select max(a) AS \"max\" -- comment\nfrom t"},
		{"SELECT (SELECT max(a) FROM u), coalesce(b, 0) FROM t ORDER BY 1", `SELECT (SELECT max(a) FROM u) AS "max", coalesce(b, 0) AS "coalesce" FROM t ORDER BY 1`},
		{"SELECT a FROM t", "SELECT a FROM t"},
		{"SELECT max(x) AS total FROM t", "SELECT max(x) AS total FROM t"},
		{"SELECT (f(x))[1].item, (f(x))[2], (a.r).score FROM t a", `SELECT (f(x))[1].item AS "item", (f(x))[2] AS "f", (a.r).score AS "score" FROM t a`},
		{`SELECT 1 AS Total, 2 AS "Mixed", x IS NULL, CASE WHEN a THEN 1 ELSE b END FROM t`,
			`SELECT 1 AS total, 2 AS "Mixed", x IS NULL AS "?column?", CASE WHEN a THEN 1 ELSE b END AS "b" FROM t`},
		{"SELECT (f(x)).*, (a.r).* FROM t a", "SELECT (f(x)).*, (a.r).* FROM t a"},
		{"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM t",
			`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) AS "percentile_cont" FROM t`},
	}
	for _, tt := range tests {
		st := p.PlanOne(tt.in)
		if st.Text != tt.want || st.Rewritten {
			t.Errorf("%q\n-> %q (rewritten %v)\nwant %q", tt.in, st.Text, st.Rewritten, tt.want)
		}
	}
}

func TestDeclaredParameterTypes(t *testing.T) {
	p := testPlanner()
	st := p.PlanParse("SELECT $1, $2::text, $3 + 1", []string{"INTEGER", "BIGINT", "INTEGER[]"})
	for _, want := range []string{"$1::int", "$2::text", "$3::int[] + 1"} {
		if !strings.Contains(st.Text, want) {
			t.Errorf("%q lacks %q", st.Text, want)
		}
	}
	if st := p.PlanParse("SELECT $1", nil); st.Text != `SELECT $1::text AS "?column?"` {
		t.Errorf("undeclared parameter: %q", st.Text)
	}
}

func TestSerialAndDeallocate(t *testing.T) {
	p := testPlanner()
	st := p.PlanOne("CREATE TABLE s.items (id SERIAL PRIMARY KEY, big BIGSERIAL, name text)")
	if len(st.Before) != 2 || st.Before[0] != "CREATE SEQUENCE IF NOT EXISTS s.items_id_seq" {
		t.Errorf("Before = %q", st.Before)
	}
	for _, want := range []string{"id int PRIMARY KEY NOT NULL DEFAULT nextval('s.items_id_seq')", "big bigint NOT NULL DEFAULT nextval('s.items_big_seq')"} {
		if !strings.Contains(st.Text, want) {
			t.Errorf("%q lacks %q", st.Text, want)
		}
	}
	for q, want := range map[string]string{"DEALLOCATE ALL": "*", "DEALLOCATE PREPARE S_1": "s_1", "deallocate x": "x"} {
		if got := p.PlanOne(q).Deallocate; got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
}

func TestCursors(t *testing.T) {
	p := testPlanner()
	d := p.PlanOne(`DECLARE "Big" CURSOR WITH HOLD FOR SELECT relname FROM pg_class`)
	if d.Cursor == nil || d.Cursor.Op != "declare" || d.Cursor.Name != "Big" || !d.Cursor.Hold ||
		!strings.Contains(d.Cursor.Query.Text, "mallard_catalog.pg.pg_class") {
		t.Fatalf("declare: %+v", d.Cursor)
	}
	for q, want := range map[string]plan.CursorOp{
		"FETCH FORWARD 100 FROM big": {Op: "fetch", Name: "big", Count: 100},
		`FETCH 2 FROM "Big"`:         {Op: "fetch", Name: "Big", Count: 2},
		`CLOSE "Big"`:                {Op: "close", Name: "Big"},
		"FETCH ALL IN big":           {Op: "fetch", Name: "big"},
		"FETCH big":                  {Op: "fetch", Name: "big", Count: 1},
		"MOVE 5 big":                 {Op: "move", Name: "big", Count: 5},
		"CLOSE big":                  {Op: "close", Name: "big"},
		"CLOSE ALL":                  {Op: "close"},
	} {
		st := p.PlanOne(q)
		if st.Cursor == nil || *st.Cursor != want {
			t.Errorf("%s: %+v, want %+v", q, st.Cursor, want)
		}
	}
}

// TestZonedConstants: timestamptz and timetz constants that Postgres reads
// and DuckDB does not (no seconds before the zone, a one-digit or spaced
// offset) are rewritten to the same instant in DuckDB's form; the forms
// DuckDB reads already are left as written.
func TestZonedConstants(t *testing.T) {
	p := testPlanner()
	for _, tt := range []struct{ in, want string }{
		{"SELECT '2024-01-01 00:00+02'::timestamptz", "'2024-01-01 00:00:00+02'::timestamptz"},
		{"SELECT timestamptz '2024-01-01 10:00:00 -3'", "'2024-01-01 10:00:00-03'::timestamptz"},
		{"SELECT timestamptz '2024-01-01T10:00 +5:30'", "'2024-01-01T10:00:00+05:30'::timestamptz"},
		{"SELECT '2024-01-01 10:00-0530'::timestamptz", "'2024-01-01 10:00:00-0530'::timestamptz"},
		{"SELECT '2024-01-01 10:00:00.25 +530'::timestamptz", "'2024-01-01 10:00:00.25+0530'::timestamptz"},
		{"SELECT '2024-01-01 9:30+05:45:30'::timestamp with time zone", "'2024-01-01 09:30:00+05:45:30'::timestamp with time zone"},
		{"SELECT '2024-01-01 10:00Z'::timestamptz", "'2024-01-01 10:00:00Z'::timestamptz"},
		{"SELECT '2024-01-01 10:00 Europe/Paris'::timestamptz", "'2024-01-01 10:00:00 Europe/Paris'::timestamptz"},
		{"SELECT '01:02+4'::timetz", "'01:02:00+04'::timetz"},
	} {
		if got := p.PlanOne(tt.in).Text; !strings.Contains(got, tt.want) {
			t.Errorf("%s\n  became %s\n  want   %s", tt.in, got, tt.want)
		}
	}
	for _, q := range []string{
		"SELECT '2024-01-01 10:00:00+05'::timestamptz",
		"SELECT '2024-01-01 10:00:00-05:30'::timestamptz",
		"SELECT '2024-01-01T10:00:00Z'::timestamptz",
		"SELECT '2024-01-01 10:00'::timestamptz",
		"SELECT '2024-01-01 10:00+02'::timestamp",
		"SELECT '01:02 UTC'::timetz",
		"SELECT 'now'::timestamptz",
	} {
		if st := p.PlanOne(q); st.Rewritten {
			t.Errorf("%s became %s", q, st.Text)
		}
	}
}
