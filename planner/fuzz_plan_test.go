package planner_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/planner/catalog"
)

// fuzzPlanner is a planner with Mallard's real catalog and table functions,
// operations and scalars shaped like the real ones, so that every rewrite
// the server applies is reachable.
func fuzzPlanner() *planner.Planner {
	return planner.New(planner.Catalog{
		Database: catalog.Database, PGSchema: catalog.PGSchema, InfoSchema: catalog.InfoSchema,
		Views: catalog.Views(), InfoViews: catalog.InfoViews(),
		Macros: catalog.Macros(), InfoMacros: catalog.InfoMacros(),
		Functions: map[string][]string{
			"rescale": {"save_as"}, "pivot_entity_time": {"time", "agg"},
			"train_gat": {"source", "target", "epochs", "seed"},
		},
		Operations: []string{"mlops.cancel"},
		Scalars:    []string{"recommendations"},
	})
}

// FuzzPlan plans fuzzed SQL as the server does: the whole string with Plan
// (a simple Query), and the string as one statement with PlanOne and
// PlanParse (a Parse). Planning must not panic and must be deterministic;
// a statement must plan the same alone as within its query string; and the
// plan must agree with the lexer's classification (see checkPlan).
func FuzzPlan(f *testing.F) {
	seeds := []string{
		"",
		"-- only a comment",
		"SELECT relname FROM pg_catalog.pg_class c WHERE c.oid = 'public.t'::regclass",
		"SELECT table_name FROM information_schema.tables; SHOW TimeZone; SET search_path TO public",
		"SET LOCAL statement_timeout TO 5000; RESET ALL; SELECT set_config('application_name', 'x', false)",
		"WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a RETURNING *",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT n FROM r",
		"BEGIN; DECLARE c CURSOR WITH HOLD FOR SELECT * FROM t; FETCH 2 FROM c; MOVE NEXT IN c; CLOSE c; COMMIT",
		"DEALLOCATE ALL; PREPARE p AS SELECT $1::int; EXECUTE p(1); DEALLOCATE p",
		"CREATE TABLE t (id serial PRIMARY KEY, b bigserial, x text DEFAULT 'a''b')",
		"CREATE TABLE s AS SELECT 1; CREATE MATERIALIZED VIEW v AS SELECT 1; DROP TABLE IF EXISTS t CASCADE",
		`SELECT to_char(ts, 'YYYY-MM-DD HH24:MI:SS') , format('%I.%L', s, v), extract(year FROM ts) FROM t WHERE name LIKE 'a\_%'`,
		"SELECT 1 WHERE 'abc' OPERATOR(pg_catalog.~) '^a' AND x !~* 'B' AND y COLLATE pg_catalog.default = z",
		`INSERT INTO t VALUES ('\x00ff'::bytea, 1::oid, 'x'::name, $1, $2::regtype) ON CONFLICT DO NOTHING RETURNING id`,
		"SELECT * FROM rescale('wide', save_as := 'w') JOIN train_gat(source => 'g', epochs := [1, 2]) USING (t)",
		"SELECT mlops.cancel(42), recommendations('m', u.id, 5) FROM u",
		"SELECT s FROM generate_series(1, 3) AS s, unnest(ARRAY[1,2]) WITH ORDINALITY",
		"COPY t (a, \"B\") FROM STDIN WITH (FORMAT csv, HEADER); COPY (SELECT 1) TO STDOUT",
		"LISTEN x; NOTIFY x; LOCK TABLE t; GRANT SELECT ON t TO u; DO $$ BEGIN END $$",
		"ROLLBACK TO SAVEPOINT a; RELEASE a; ROLLBACK PREPARED 'x'; COMMIT PREPARED 'x'; START TRANSACTION",
		"FROM t SELECT a; PIVOT t ON a USING sum(b); SELECT [1, 2][1], {'a': 1}; DESCRIBE t",
		"(SELECT 1) UNION (SELECT 2) ORDER BY 1 LIMIT $1",
		"SELECT $name, $1, E'\\'; x', $t$ ; $t$, U&'\\0041' /* a /* b */ c */",
		"UPDATE t SET a = 1 FROM u WHERE t.id = u.id RETURNING t.*; DELETE FROM t USING u; MERGE INTO t USING u ON true WHEN MATCHED THEN DELETE",
		`SELECT a / b, mod(a, 0), to_char(x, 'FMS9,990.09'), to_char(d, 'FMDay Q'), '{1,"a\"b",{NULL}}'::text[], x = ANY('{a}'), 'on'::bool AS Up`,
		"SELECT NULL, 'x' || NULL, initcap(s), justify_hours(i), substring(s FROM '(a)[b]'), current_setting('x.y', true), date_part('ms', ts)",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	p := fuzzPlanner()
	f.Fuzz(func(t *testing.T, query string) {
		stmts := p.Plan(query)
		if again := p.Plan(query); !reflect.DeepEqual(stmts, again) {
			t.Fatalf("Plan(%q) is not deterministic:\n%#v\n%#v", query, stmts, again)
		}
		split := planner.Split(query)
		if len(stmts) != len(split) {
			t.Fatalf("Plan(%q) has %d statements, Split %d", query, len(stmts), len(split))
		}
		for i, st := range stmts {
			alone := p.PlanOne(split[i].Text)
			alone.Offset = split[i].Offset
			if !reflect.DeepEqual(st, alone) {
				t.Fatalf("statement %d of %q plans differently alone:\n%#v\n%#v", i, query, st, alone)
			}
			checkPlan(t, split[i], st)
		}
		one := p.PlanOne(query)
		if again := p.PlanOne(query); !reflect.DeepEqual(one, again) {
			t.Fatalf("PlanOne(%q) is not deterministic:\n%#v\n%#v", query, one, again)
		}
		checkPlan(t, planner.Classify(query), one)
		typed := p.PlanParse(query, []string{"INTEGER", "", "VARCHAR"})
		if typed.Kind != one.Kind || typed.Tag != one.Tag {
			t.Fatalf("PlanParse(%q) is %v %q, PlanOne %v %q", query, typed.Kind, typed.Tag, one.Kind, one.Tag)
		}
	})
}

// checkPlan checks the plan st of a statement that the lexer classified as
// c. The planner refines the lexer's Kind only to SHOW and set_config();
// Returning belongs to DML and Setting to the statements about
// parameters; only KindEmpty has no Tag and is left as it was.
func checkPlan(t *testing.T, c, st planner.Statement) {
	t.Helper()
	if strings.HasPrefix(st.Kind.String(), "Kind(") {
		t.Fatalf("%q: invalid kind %v", c.Text, st.Kind)
	}
	refined := c.Kind == planner.KindQuery && (st.Kind == planner.KindShow || st.Kind == planner.KindSetConfig)
	if st.Kind != c.Kind && !refined {
		t.Fatalf("%q: planned as %v, classified as %v", c.Text, st.Kind, c.Kind)
	}
	if st.Kind != c.Kind && st.Setting == nil {
		t.Fatalf("%q: refined to %v without a Setting", c.Text, st.Kind)
	}
	if st.Tag != c.Tag && !refined {
		t.Fatalf("%q: tag %q, classified as %q", c.Text, st.Tag, c.Tag)
	}
	if (st.Kind == planner.KindEmpty) != (st.Tag == "") {
		t.Fatalf("%q: kind %v with tag %q", c.Text, st.Kind, st.Tag)
	}
	if st.Kind == planner.KindEmpty && !reflect.DeepEqual(st, c) {
		t.Fatalf("%q: an empty statement was changed: %#v", c.Text, st)
	}
	switch st.Kind {
	case planner.KindInsert, planner.KindUpdate, planner.KindDelete, planner.KindMerge:
	default:
		if st.Returning {
			t.Fatalf("%q: %v has Returning", c.Text, st.Kind)
		}
	}
	switch st.Kind {
	case planner.KindSet, planner.KindReset, planner.KindShow, planner.KindSetConfig:
	default:
		if st.Setting != nil {
			t.Fatalf("%q: %v has Setting %+v", c.Text, st.Kind, *st.Setting)
		}
	}
}
