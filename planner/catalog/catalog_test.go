package catalog_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/planner/catalog"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		want  []string
	}{
		{"Views", catalog.Views(), []string{"pg_attribute", "pg_class", "pg_constraint", "pg_database",
			"pg_description", "pg_index", "pg_namespace", "pg_proc", "pg_settings", "pg_type"}},
		{"InfoViews", catalog.InfoViews(), []string{"columns", "key_column_usage", "referential_constraints",
			"schemata", "table_constraints", "tables", "views"}},
		{"Macros", catalog.Macros(), []string{"current_database", "format_type", "mallard_regclass",
			"mallard_regclass_name", "mallard_regtype", "pg_get_indexdef", "pg_table_is_visible", "version"}},
		{"InfoMacros", catalog.InfoMacros(), []string{"_pg_expandarray"}},
	} {
		if !slices.IsSorted(tc.names) {
			t.Errorf("%s are not sorted: %v", tc.name, tc.names)
		}
		if len(slices.Compact(slices.Clone(tc.names))) != len(tc.names) {
			t.Errorf("%s has duplicates: %v", tc.name, tc.names)
		}
		for _, w := range tc.want {
			if !slices.Contains(tc.names, w) {
				t.Errorf("%s lacks %s", tc.name, w)
			}
		}
	}
	for _, v := range catalog.Views() {
		if !strings.HasPrefix(v, "pg_") {
			t.Errorf("Views has %s, which is not a pg_ relation", v)
		}
	}
}

// TestStatementsAreRepeatable installs the catalog twice on one database, as
// a server that restarts its catalog setup would.
func TestStatementsAreRepeatable(t *testing.T) {
	_, conn := session(t, sampleDDL...)
	for _, q := range catalog.Statements() {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("second run: %s\n%v", firstLine(q), err)
		}
	}
	if got := rows(t, conn, "SELECT count(*) FROM mallard_catalog.pg.pg_index"); got[0][0] != "4" {
		t.Errorf("after a second installation pg_index has %s rows, want 4", got[0][0])
	}
}

// TestEveryObjectAnswers queries every view and calls every macro once, so
// that a file that binds at creation but fails at run time is caught.
func TestEveryObjectAnswers(t *testing.T) {
	_, conn := session(t, sampleDDL...)
	for _, v := range catalog.Views() {
		rows(t, conn, "SELECT * FROM mallard_catalog.pg."+v+" LIMIT 5")
	}
	for _, v := range catalog.InfoViews() {
		rows(t, conn, "SELECT * FROM mallard_catalog.info."+v+" LIMIT 5")
	}
	for _, r := range rows(t, conn, `
		SELECT function_name, function_type, len(parameters) FROM duckdb_functions()
		WHERE database_name = 'mallard_catalog' AND schema_name = 'pg' ORDER BY 1`) {
		args := strings.TrimSuffix(strings.Repeat("NULL, ", atoi(r[2])), ", ")
		q := "SELECT mallard_catalog.pg." + r[0] + "(" + args + ")"
		if r[1] == "table_macro" {
			q = "SELECT * FROM mallard_catalog.pg." + r[0] + "(" + args + ")"
		}
		rows(t, conn, q)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
