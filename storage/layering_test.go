package storage_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// engineImporters are the directories of the module, with everything
// under them, whose Go code may import DuckDB's Go packages: the engine's
// own layer (the registry's store among it), the function registration
// and the benchmark harness. Every other package reaches the engine
// through storage (see docs/development.md, Layering).
var engineImporters = []string{"storage", "functions", "server", "bench"}

// imports calls f with the path, relative to the module's root, and the
// imports of every non-test Go file of the module. Tests may open the
// engine directly to check what it wrote, so _test.go files are left out.
func imports(t *testing.T, f func(rel string, imported []string)) {
	t.Helper()
	goFiles(t, parser.ImportsOnly, func(rel string, file *ast.File) {
		var imported []string
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			imported = append(imported, p)
		}
		f(rel, imported)
	})
}

// goFiles calls f with the path, relative to the module's root, and the
// syntax (parsed in mode) of every non-test Go file of the module.
func goFiles(t *testing.T, mode parser.Mode, f func(rel string, file *ast.File)) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, mode)
		if err != nil {
			return err
		}
		checked++
		rel, _ := filepath.Rel(root, path)
		f(filepath.ToSlash(rel), file)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d Go files under %s; the module has more: is the root right?", checked, root)
	}
}

// under reports whether the file rel is in one of dirs or below.
func under(rel string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// TestOnlyEngineLayerImportsDuckDB fails for each non-test Go file outside
// engineImporters that imports a package of github.com/duckdb/
// (duckdb-go, its mapping, the bindings).
func TestOnlyEngineLayerImportsDuckDB(t *testing.T) {
	imports(t, func(rel string, imported []string) {
		if under(rel, engineImporters) {
			return
		}
		for _, p := range imported {
			if strings.HasPrefix(p, "github.com/duckdb/") {
				t.Errorf("%s imports %s: only %v may import the engine; go through storage", rel, p, engineImporters)
			}
		}
	})
}

// TestMLOpsImportsNoDatabaseSQL fails for each non-test Go file under
// mlops that imports database/sql: the models, the training lifecycle and
// the registry hold no database handle; the registry's statements are
// storage/registrystore's.
func TestMLOpsImportsNoDatabaseSQL(t *testing.T) {
	imports(t, func(rel string, imported []string) {
		if !under(rel, []string{"mlops"}) {
			return
		}
		for _, p := range imported {
			if p == "database/sql" || strings.HasPrefix(p, "database/sql/") {
				t.Errorf("%s imports %s: mlops holds no database handle; put the statements in storage (the registry's in storage/registrystore)", rel, p)
			}
		}
	})
}

// sqlText matches a string that starts a SQL statement or names a table
// function of the engine's readers.
var sqlText = regexp.MustCompile(`^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|COPY|WITH|PRAGMA|SET)\s|read_(parquet|csv|json)\(`)

// TestMLOpsWritesNoSQL fails for each string literal of a non-test Go file
// under mlops that reads as SQL: the models and their jobs reach the
// engine through storage's typed calls (storage.Parquet for an MPI rank's
// files), so SQL text lives with the engine only.
func TestMLOpsWritesNoSQL(t *testing.T) {
	goFiles(t, 0, func(rel string, file *ast.File) {
		if !under(rel, []string{"mlops"}) {
			return
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if v, err := strconv.Unquote(lit.Value); err == nil && sqlText.MatchString(v) {
					t.Errorf("%s: SQL text %q; mlops reaches the engine through storage's typed calls", rel, v)
				}
			}
			return true
		})
	})
}

// aboveStorage are the module's directories above the engine's layer:
// the function registration, the wire side, the planner and what wires
// them. Nothing under storage imports them (storage/prep runs the data
// preparation's SQL for functions; functions binds it, never the reverse).
var aboveStorage = []string{"functions", "sqlfront", "planner", "server", "web", "ops", "cmd", "bench"}

// TestStorageImportsNothingAbove fails for each non-test Go file under
// storage that imports a package of the module from aboveStorage.
func TestStorageImportsNothingAbove(t *testing.T) {
	const module = "github.com/mallard/mallard/"
	imports(t, func(rel string, imported []string) {
		if !under(rel, []string{"storage"}) {
			return
		}
		for _, p := range imported {
			dir, ok := strings.CutPrefix(p, module)
			if ok && (slices.Contains(aboveStorage, dir) || under(dir, aboveStorage)) {
				t.Errorf("%s imports %s: storage is below %v; declare an interface in storage and let the upper layer implement it", rel, p, aboveStorage)
			}
		}
	})
}
