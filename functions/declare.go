package functions

import (
	"fmt"
	"math"
)

// A function's arguments are declared once, as a list of params each
// bound to a field of the function's options struct by a pointer:
//
//	func (o *forecastArgs) params() []param {
//		return []param{
//			textArg(&o.Model, "model", "the model, 'name' or 'name@version'").pos().req(),
//			intArg(&o.Steps, "steps", 1, 10_000, "how many steps to forecast").or(1),
//		}
//	}
//
// From that list come the signature DuckDB registers, the catalog's view
// (\df), the documentation's reference and the checks of every call; the
// binder fills a fresh struct, so the function reads o.Steps, never an
// argument by its name.

// options is an options struct a function's arguments bind into: P is a
// pointer to it.
type options[T any] interface {
	*T
	// params declares the arguments, positional ones first, each bound to
	// a field of the struct.
	params() []param
}

// textArg declares a text argument bound to f.
func textArg(f *string, name, help string) param {
	return param{name: name, kind: kindText, help: help, field: f, set: func(v any) { *f = v.(string) }}
}

// textsArg declares an argument bound to f that takes a list of text, or
// one text standing for a list of one.
func textsArg(f *[]string, name, help string) param {
	return param{name: name, kind: kindTextList, help: help, field: f, set: func(v any) { *f = v.([]string) }}
}

// intArg declares an integer argument from min to max bound to f.
func intArg[I ~int | ~int64 | ~uint64](f *I, name string, min, max float64, help string) param {
	return param{name: name, kind: kindInt, min: min, max: max, help: help, field: f, set: func(v any) { *f = I(v.(int64)) }}
}

// floatArg declares a numeric argument from min to max bound to f.
func floatArg(f *float64, name string, min, max float64, help string) param {
	return param{name: name, kind: kindFloat, min: min, max: max, help: help, field: f, set: func(v any) { *f = v.(float64) }}
}

// sizesArg declares an argument bound to f that takes a list of sizes,
// each from 1 to 1024.
func sizesArg(f *[]int, name, help string) param {
	return param{name: name, kind: kindIntList, help: help, field: f, set: func(v any) { *f = v.([]int) }}
}

// boolArg declares a boolean argument bound to f.
func boolArg(f *bool, name, help string) param {
	return param{name: name, kind: kindBool, help: help, field: f, set: func(v any) { *f = v.(bool) }}
}

// idArg declares an argument bound to f that takes a user's or an item's
// id: an int64 or a string, nil when not given.
func idArg(f *any, name, help string) param {
	return param{name: name, kind: kindID, min: math.MinInt64, max: math.MaxInt64, help: help, field: f, set: func(v any) { *f = v }}
}

// idsArg declares an argument bound to f that takes a list of ids.
func idsArg(f *[]any, name, help string) param {
	return param{name: name, kind: kindIDList, help: help, field: f, set: func(v any) { *f = v.([]any) }}
}

// pos makes p positional.
func (p param) pos() param { p.positional = true; return p }

// req makes p required.
func (p param) req() param { p.required = true; return p }

// oneOf restricts a text argument to choices.
func (p param) oneOf(choices ...string) param { p.choices = choices; return p }

// open excludes the lower bound (lo), the upper (hi), or both from a
// numeric argument's range.
func (p param) open(lo, hi bool) param { p.minOpen, p.maxOpen = lo, hi; return p }

// or is p's default: the value an omitted argument takes. An integer
// default may be given as any Go integer; it is kept as the int64 the
// argument's values are.
func (p param) or(def any) param {
	switch d := def.(type) {
	case int:
		def = int64(d)
	case uint64:
		def = int64(d)
	}
	p.def = def
	return p
}

// unbounded is the upper bound of an integer argument that has none.
const unbounded = math.MaxInt64

// given records which arguments the call gave, for the options structs
// that embed it: an omitted argument takes its default, and a function
// that must tell the two apart asks explicit.
type given struct {
	set   map[any]bool
	names map[any]string
}

// givenState is implemented by the options structs that embed given.
type givenState interface{ state() *given }

func (g *given) state() *given { return g }

// explicit reports whether the call gave the argument bound to field
// (a pointer to a field of the options struct that embeds g).
func (g *given) explicit(field any) bool { return g.set[field] }

// name is the name of the argument bound to field.
func (g *given) name(field any) string { return g.names[field] }

// keep sets *field to v, as if the call had given it, unless the call
// gave that argument.
func keep[V any](g *given, field *V, v V) {
	if !g.set[field] {
		*field, g.set[field] = v, true
	}
}

// override sets *dst to the value of the argument bound to field if the
// call gave it.
func override[V any](g *given, dst, field *V) {
	if g.set[field] {
		*dst = *field
	}
}

// declared is the signature of fn declared by T's params, with result
// (nil when the columns depend on the call).
func declared[T any, P options[T]](fn string, result []column) signature {
	s := signature{fn: fn, result: result}
	for _, p := range P(new(T)).params() {
		if p.positional {
			s.positional = append(s.positional, p)
		} else {
			s.named = append(s.named, p)
		}
	}
	return s
}

// bindOptions fills a fresh options struct from arguments that s.parse
// checked and converted: each value given, else each default.
func bindOptions[T any, P options[T]](a args) P {
	o := P(new(T))
	g, _ := any(o).(givenState)
	if g != nil {
		*g.state() = given{set: map[any]bool{}, names: map[any]string{}}
	}
	for _, p := range o.params() {
		if v, ok := a.values[p.name]; ok {
			p.set(v)
		}
		if g != nil {
			g.state().names[p.field] = p.name
			if a.explicit[p.name] {
				g.state().set[p.field] = true
			}
		}
	}
	return o
}

// typedFunction is a table function whose arguments P declares: bind gets
// them typed and checked. writes, if set, says whether a call writes to
// the database (trains, saves), which a read-only caller may not do.
func typedFunction[T any, P options[T]](fn string, result []column, bind func(*call, P) (*table, error), writes func(P) bool) tableFunction {
	return tableFunction{
		sig: declared[T, P](fn, result),
		bind: func(c *call, a args) (*table, error) {
			o := bindOptions[T, P](a)
			if writes != nil && writes(o) {
				if err := c.mayWrite(fn); err != nil {
					return nil, err
				}
			}
			return bind(c, o)
		},
	}
}

// alwaysWrites is the writes of a function every call of which writes.
func alwaysWrites[P any](P) bool { return true }

// checkDeclaration reports a param whose default is not a value of its
// kind or is outside its own range or choices.
func (s signature) checkDeclaration() error {
	for _, p := range append(append([]param{}, s.positional...), s.named...) {
		if p.def == nil {
			continue
		}
		if want := p.kind.goType(); want == "" || fmt.Sprintf("%T", p.def) != want {
			return fmt.Errorf("%s: argument %s of kind %s has a default of type %T", s.fn, p.name, p.kind, p.def)
		}
		if err := s.check(p, p.def); err != nil {
			return fmt.Errorf("%s: the default of argument %s: %w", s.fn, p.name, err)
		}
	}
	return nil
}

// goType is the Go type of a default of kind k; "" for the kinds that
// take no default.
func (k kind) goType() string {
	return [...]string{"string", "[]string", "int64", "float64", "[]int", "bool", "", ""}[k]
}
