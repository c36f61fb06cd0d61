//go:build duckdb_arrow

package functions_test

import (
	"slices"
	"testing"

	"github.com/mallard/mallard/functions"
)

// TestNamesSignatures: the catalog's view of a function is its
// declaration: arguments in declared order with PostgreSQL types and
// defaults, required ones without a default, the declared result.
func TestNamesSignatures(t *testing.T) {
	sigs := map[string]functions.Signature{}
	for _, s := range functions.Surface().Signatures {
		sigs[s.Name] = s
	}
	gat := sigs["train_gat"]
	if len(gat.Args) < 4 {
		t.Fatalf("train_gat: %d arguments", len(gat.Args))
	}
	want := []functions.Argument{{"source", "text", ""}, {"model", "text", "NULL::text"},
		{"window", "bigint", "4"}, {"hidden", "integer[]", "ARRAY[16, 16]"}}
	if !slices.Equal(gat.Args[:4], want) {
		t.Errorf("train_gat's first arguments are %v, want %v", gat.Args[:4], want)
	}
	byName := map[string]functions.Argument{}
	for _, a := range gat.Args {
		byName[a.Name] = a
	}
	for name, want := range map[string]functions.Argument{
		"lr":                {"lr", "double precision", "0.005"},
		"optimizer":         {"optimizer", "text", "'sgd'::text"},
		"time":              {"time", "text[]", "NULL::text[]"},
		"deploy":            {"deploy", "text", "'auto'::text"},
		"clip":              {"clip", "double precision", "5"},
		"allow_data_change": {"allow_data_change", "boolean", "false"},
	} {
		if got := byName[name]; got != want {
			t.Errorf("train_gat's %s is %v, want %v", name, got, want)
		}
	}
	if _, ok := byName["mallard_connection"]; ok {
		t.Error("train_gat shows the hidden caller argument")
	}
	if got := gat.Result; len(got) != 6 || got[0] != (functions.Column{Name: "epoch", Type: "bigint"}) {
		t.Errorf("train_gat returns %v, want epoch bigint first of 6", got)
	}
	if sigs["forecast"].Result != nil {
		t.Errorf("forecast's columns depend on the model, but it declares %v", sigs["forecast"].Result)
	}
	if got := sigs["recommend"].Args; len(got) == 0 || got[0].Default != "" {
		t.Errorf("recommend's first argument, the model, is required: %v", got)
	}
}
