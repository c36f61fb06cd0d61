//go:build duckdb_arrow

package functions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// argLookups are the methods of args that read an argument by name.
var argLookups = map[string]bool{"text": true, "texts": true, "int": true, "float": true, "ints": true,
	"ids": true, "given": true, "bool": true, "value": true, "explicit": true}

// TestNamesArgumentLookups walks, from every table function's bind and
// writes steps and every operation's run step, the package's functions
// that receive its args, and checks that every argument they read by a
// literal name is one the function declares: a typo or a helper shared
// with a function that has no such argument fails here, not as a silent
// zero (or, at run time, as the panic args.get raises).
func TestNamesArgumentLookups(t *testing.T) {
	src := parsePackage(t)
	type entry struct {
		sig   signature
		steps []any
	}
	var entries []entry
	for _, f := range tableFunctions() {
		steps := []any{f.bind}
		if f.writes != nil {
			steps = append(steps, f.writes)
		}
		entries = append(entries, entry{f.sig, steps})
	}
	for _, op := range operations() {
		entries = append(entries, entry{op.sig, []any{op.run}})
	}
	checked := 0
	for _, e := range entries {
		reads := map[string]string{}
		for _, step := range e.steps {
			name := funcName(step)
			decls := src.funcs[name]
			if len(decls) == 0 {
				t.Fatalf("%s: no declaration of %s in the package's source", e.sig.fn, name)
			}
			for _, d := range decls {
				src.reads(d, reads, map[*ast.FuncDecl]bool{})
			}
		}
		if len(reads) == 0 {
			t.Errorf("%s reads no argument by name: the walk lost its way", e.sig.fn)
		}
		for name, where := range reads {
			checked++
			if name == computedName {
				t.Errorf("%s reads an argument by a name computed in %s; read it by a literal name, or range over a literal list", e.sig.fn, where)
			} else if !e.sig.declares(name) {
				t.Errorf("%s reads argument %q (in %s), which it does not declare", e.sig.fn, name, where)
			}
		}
	}
	t.Logf("checked %d argument reads of %d functions", checked, len(entries))
	if checked < 100 {
		t.Errorf("checked %d argument reads; the package has well over 100", checked)
	}
}

// funcName is the name of the package-level function f is, or for a
// closure the function that declares it.
func funcName(f any) string {
	full := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	name := full[strings.LastIndex(full, "/")+1:]
	name = strings.TrimPrefix(name, "functions.")
	name, _, _ = strings.Cut(name, ".")
	return name
}

// goSource is the package's declarations by name, functions and methods
// alike (a method call is followed to every method of that name).
type goSource struct {
	funcs map[string][]*ast.FuncDecl
}

func parsePackage(t *testing.T) *goSource {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := &goSource{funcs: map[string][]*ast.FuncDecl{}}
	for _, f := range pkgs["functions"].Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				s.funcs[fd.Name.Name] = append(s.funcs[fd.Name.Name], fd)
			}
		}
	}
	return s
}

// reads adds to out the literal names d reads from its args, and those
// read by the functions it passes them to, each with the function that
// reads it.
func (s *goSource) reads(d *ast.FuncDecl, out map[string]string, seen map[*ast.FuncDecl]bool) {
	if seen[d] || d.Body == nil {
		return
	}
	seen[d] = true
	vars := argsParams(d.Type)
	ranged := map[*ast.CallExpr]bool{} // lookups by a name a range over a literal list gives
	ast.Inspect(d, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			for name := range argsParams(lit.Type) {
				vars[name] = true
			}
		}
		if r, ok := n.(*ast.RangeStmt); ok {
			if list, ok := r.X.(*ast.CompositeLit); ok {
				for _, call := range lookups(r.Body, vars) {
					ranged[call] = true
					for _, name := range listNames(list) {
						out[name] = d.Name.Name
					}
				}
			}
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if isLookup(call, vars) {
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				name, _ := strconv.Unquote(lit.Value)
				out[name] = d.Name.Name
			} else if !ranged[call] {
				out[computedName] = d.Name.Name
			}
			return true
		}
		for _, arg := range call.Args {
			if !isVar(arg, vars) {
				continue
			}
			for _, callee := range s.callees(call.Fun) {
				s.reads(callee, out, seen)
			}
		}
		return true
	})
}

func (s *goSource) callees(fun ast.Expr) []*ast.FuncDecl {
	switch f := fun.(type) {
	case *ast.Ident:
		return s.funcs[f.Name]
	case *ast.SelectorExpr:
		return s.funcs[f.Sel.Name]
	}
	return nil
}

// computedName stands, among the names a function reads, for a name the
// test cannot read from the source.
const computedName = "<computed>"

// isLookup reports whether call reads an argument of one of vars by name.
func isLookup(call *ast.CallExpr, vars map[string]bool) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && argLookups[sel.Sel.Name] && isVar(sel.X, vars) && len(call.Args) == 1
}

// lookups are the reads of arguments in body.
func lookups(body ast.Node, vars map[string]bool) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isLookup(call, vars) {
			out = append(out, call)
		}
		return true
	})
	return out
}

// listNames are the names a literal list that a range gives to lookups
// holds: a slice's strings, a map's string keys, or the first string of
// each struct element.
func listNames(list *ast.CompositeLit) []string {
	var out []string
	for _, e := range list.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Key
		}
		if c, ok := e.(*ast.CompositeLit); ok && len(c.Elts) > 0 {
			e = c.Elts[0]
		}
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			name, _ := strconv.Unquote(lit.Value)
			out = append(out, name)
		}
	}
	return out
}

// argsParams are the names of ft's parameters of type args.
func argsParams(ft *ast.FuncType) map[string]bool {
	out := map[string]bool{}
	for _, p := range ft.Params.List {
		if id, ok := p.Type.(*ast.Ident); ok && id.Name == "args" {
			for _, n := range p.Names {
				out[n.Name] = true
			}
		}
	}
	return out
}

func isVar(e ast.Expr, vars map[string]bool) bool {
	id, ok := e.(*ast.Ident)
	return ok && vars[id.Name]
}

// TestNamesUndeclaredArgumentPanics: reading an argument the function
// does not declare panics (args.get), and the bind step reports it as an
// internal error rather than reading a zero.
func TestNamesUndeclaredArgumentPanics(t *testing.T) {
	sig := signature{fn: "f", named: []param{{name: "epochs", kind: kindInt, def: int64(3)}}}
	a, err := sig.parse(map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.int("epochs"); got != 3 {
		t.Errorf("epochs = %d, want its default 3", got)
	}
	read := func() (err error) {
		defer recoverUndeclared(&err)
		_ = a.int("epoch")
		return nil
	}
	if err := read(); err == nil || !strings.Contains(err.Error(), `f reads argument epoch, which it does not declare`) {
		t.Errorf("reading an undeclared argument: err = %v", err)
	}
}
