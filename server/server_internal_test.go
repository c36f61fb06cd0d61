//go:build duckdb_arrow

package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/functions"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/storage"
)

func TestJobDir(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"beside the database", Config{DB: storage.Config{Path: "/data/m.duckdb"}}, "/data/m.duckdb.jobs"},
		{"in memory", Config{DB: storage.Config{Path: storage.MemoryPath}}, ""},
		{"no path", Config{}, ""},
		{"given", Config{DB: storage.Config{Path: "/data/m.duckdb"}, MPI: training.MPI{JobDir: "/jobs"}}, "/jobs"},
	}
	for _, tt := range tests {
		if got := jobDir(tt.cfg); got != tt.want {
			t.Errorf("%s: jobDir = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCatalogWiring: the catalog the planner plans with names Mallard's
// functions, their signatures and the operator's relations and scalars,
// and its install statements end with the signatures' rows.
func TestCatalogWiring(t *testing.T) {
	cat, install := Catalog()
	names := functions.Surface()
	if len(cat.Functions) != len(names.Table) || len(cat.Signatures) != len(names.Signatures) {
		t.Errorf("%d functions, %d signatures; functions declares %d and %d", len(cat.Functions), len(cat.Signatures), len(names.Table), len(names.Signatures))
	}
	if !slices.Contains(cat.Views, "pg_stat_statements") || !slices.Contains(cat.Scalars, "pg_cancel_backend") ||
		!slices.Contains(cat.Scalars, "recommendations") {
		t.Errorf("views %v, scalars %v: the operator's or Mallard's are missing", cat.Views, cat.Scalars)
	}
	for i, s := range cat.Signatures {
		f := names.Signatures[i]
		if s.Name != f.Name || len(s.Args) != len(f.Args) || len(s.Result) != len(f.Result) {
			t.Errorf("signature %d is %+v, functions declares %+v", i, s, f)
		}
	}
	tail := install[len(install)-len(cat.Signatures):]
	for i, q := range tail {
		if !strings.Contains(q, "mallard_signatures") || !strings.Contains(q, "'"+cat.Signatures[i].Name+"'") {
			t.Errorf("install statement %d of the tail does not insert %s's signature: %.80s", i, cat.Signatures[i].Name, q)
		}
	}
}
