//go:build duckdb_arrow

package functions

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/sqlstate"
)

// exampleArgs is an options struct of every kind of argument.
type exampleArgs struct {
	given
	Source string
	Epochs int
	Seed   uint64
	LR     float64
	Deploy string
	Hidden []int
	Time   []string
	Scale  bool
	User   any
}

func (o *exampleArgs) params() []param {
	return []param{textArg(&o.Source, "source", "the input").pos().req(),
		intArg(&o.Epochs, "epochs", 1, 100, "passes").or(200 - 197),
		intArg(&o.Seed, "seed", 0, unbounded, "the seed").or(7),
		floatArg(&o.LR, "lr", 0, 10, "the rate").open(true, false).or(0.5),
		textArg(&o.Deploy, "deploy", "when").oneOf("auto", "never").or("auto"),
		sizesArg(&o.Hidden, "hidden", "sizes").or([]int{16, 16}),
		textsArg(&o.Time, "time", "columns"),
		boolArg(&o.Scale, "scale", "whether").or(true),
		idArg(&o.User, "user", "an id")}
}

// bindExample parses named (values as the planner passes them: JSON text)
// and positional, and binds them into an exampleArgs.
func bindExample(named map[string]any, positional ...any) (*exampleArgs, error) {
	s := declared[exampleArgs]("f", nil)
	a, err := s.parse(named, positional)
	if err != nil {
		return nil, err
	}
	return bindOptions[exampleArgs](a), nil
}

// TestBindFillsOptions: the binder fills each field from the value given
// or else its default, converted to the field's type, and records which
// the call gave.
func TestBindFillsOptions(t *testing.T) {
	o, err := bindExample(map[string]any{"epochs": "12", "time": `"year"`, "user": "42", "seed": "null"}, `"src"`)
	if err != nil {
		t.Fatal(err)
	}
	want := exampleArgs{Source: "src", Epochs: 12, Seed: 7, LR: 0.5, Deploy: "auto", Hidden: []int{16, 16}, Time: []string{"year"},
		Scale: true, User: int64(42)}
	o.given = given{}
	if !reflect.DeepEqual(*o, want) {
		t.Errorf("bound %+v, want %+v", *o, want)
	}
	o, err = bindExample(map[string]any{"epochs": "12", "lr": "0.25"}, `"src"`)
	if err != nil {
		t.Fatal(err)
	}
	for field, want := range map[any]bool{&o.Epochs: true, &o.LR: true, &o.Source: true, &o.Seed: false, &o.Deploy: false} {
		if got := o.explicit(field); got != want {
			t.Errorf("explicit(%s) = %v, want %v", o.name(field), got, want)
		}
	}
	keep(&o.given, &o.Epochs, 99)
	keep(&o.given, &o.Seed, 99)
	if o.Epochs != 12 || o.Seed != 99 || !o.explicit(&o.Seed) {
		t.Errorf("keep: epochs %d (given 12), seed %d (left out, kept 99), explicit(seed) %v", o.Epochs, o.Seed, o.explicit(&o.Seed))
	}
}

// TestBindRefusals: a value of the wrong type, out of range or not among
// the choices, and a missing required argument, are refused by the binder
// with a message that names the argument, the value and what is accepted.
func TestBindRefusals(t *testing.T) {
	for _, tt := range []struct {
		name       string
		named      map[string]any
		positional []any
		code       string
		message    string
	}{
		{"wrong type", map[string]any{"epochs": `"ten"`}, []any{`"s"`}, "42883", `f: argument epochs must be an integer, not text 'ten'`},
		{"list for a number", map[string]any{"lr": `[1]`}, []any{`"s"`}, "42883", `f: argument lr must be a number, not a list`},
		{"below the minimum", map[string]any{"epochs": "0"}, []any{`"s"`}, "22023", `f: epochs := 0 is out of range; it must be ≥ 1 and ≤ 100`},
		{"above the maximum", map[string]any{"epochs": "101"}, []any{`"s"`}, "22023", `f: epochs := 101 is out of range; it must be ≥ 1 and ≤ 100`},
		{"open bound", map[string]any{"lr": "0"}, []any{`"s"`}, "22023", `f: lr := 0 is out of range; it must be > 0 and ≤ 10`},
		{"not finite", map[string]any{"lr": "NaN"}, []any{`"s"`}, "22023", `f: lr := NaN is out of range`},
		{"negative seed", map[string]any{"seed": "-1"}, []any{`"s"`}, "22023", `f: seed := -1 is out of range; it must be ≥ 0`},
		{"unknown choice", map[string]any{"deploy": `"later"`}, []any{`"s"`}, "22023", `f: deploy := 'later' is not accepted; use one of 'auto', 'never'`},
		{"size out of range", map[string]any{"hidden": `[16, 0]`}, []any{`"s"`}, "22023", `f: hidden := [16, 0]: element 2 is 0, and each must be from 1 to 1024`},
		{"empty text", map[string]any{"deploy": `""`}, []any{`"s"`}, "22023", `f: deploy := '' is not accepted`},
		{"missing required", nil, nil, "42883", `f: argument source is required`},
		{"too many positional", nil, []any{`"s"`, `"t"`}, "42883", `f takes at most 1 arguments, not 2`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bindExample(tt.named, tt.positional...)
			var e *sqlstate.Error
			if !errors.As(err, &e) || string(e.Code) != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %v, want %s containing %q", err, tt.code, tt.message)
			}
		})
	}
}

// TestDeclarations: every function's declaration is whole: each argument
// is bound to a field of its own and says what it does, and each default
// is a value of the argument's type that its own range and choices
// accept.
func TestDeclarations(t *testing.T) {
	sigs := allSignatures()
	if len(sigs) < 25 {
		t.Fatalf("%d functions declared", len(sigs))
	}
	for _, s := range sigs {
		if err := s.checkDeclaration(); err != nil {
			t.Error(err)
		}
		names, fields := map[string]bool{}, map[any]bool{}
		for _, p := range slices.Concat(s.positional, s.named) {
			switch {
			case names[p.name]:
				t.Errorf("%s declares %s twice", s.fn, p.name)
			case p.field == nil || p.set == nil || fields[p.field]:
				t.Errorf("%s: argument %s is bound to no field of its own", s.fn, p.name)
			case p.help == "":
				t.Errorf("%s: argument %s has no help", s.fn, p.name)
			}
			names[p.name], fields[p.field] = true, true
		}
	}
}

// TestCheckDeclarationRefusesBadDefaults: a default of the wrong Go type
// or outside the argument's own range is caught.
func TestCheckDeclarationRefusesBadDefaults(t *testing.T) {
	var n int
	var s string
	for _, p := range []param{intArg(&n, "n", 1, 10, "h").or(1.5), intArg(&n, "n", 1, 10, "h").or(0),
		textArg(&s, "s", "h").oneOf("a", "b").or("c")} {
		sig := signature{fn: "f", named: []param{p}}
		if err := sig.checkDeclaration(); err == nil {
			t.Errorf("%s with default %v: no error", p.name, p.def)
		}
	}
}

// allSignatures are the declarations of every table function and operation.
func allSignatures() []signature {
	var out []signature
	for _, f := range tableFunctions() {
		out = append(out, f.sig)
	}
	for _, op := range operations() {
		out = append(out, op.sig)
	}
	slices.SortFunc(out, func(x, y signature) int { return strings.Compare(x.fn, y.fn) })
	return out
}
