package storage_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// engineImporters are the directories of the module, with everything
// under them, whose Go code may import DuckDB's Go packages: the engine's
// own layer, the function registration and the benchmark harness. Every
// other package reaches the engine through storage (see
// docs/development.md, Layering).
var engineImporters = []string{"storage", "functions", "server", "bench"}

// TestOnlyEngineLayerImportsDuckDB parses the imports of every non-test
// Go file of the module and fails for each file outside engineImporters
// that imports a package of github.com/duckdb/ (duckdb-go, its mapping,
// the bindings). Tests may open the engine directly to check what it
// wrote, so _test.go files are not checked.
func TestOnlyEngineLayerImportsDuckDB(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			if slices.Contains(engineImporters, filepath.ToSlash(rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "github.com/duckdb/") {
				t.Errorf("%s imports %s: only %v may import the engine; go through storage", filepath.ToSlash(rel), p, engineImporters)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d Go files under %s; the module has more: is the root right?", checked, root)
	}
}
