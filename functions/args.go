package functions

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/sqlstate"
)

// kind is the type an argument accepts.
type kind int

const (
	kindText     kind = iota // a string
	kindTextList             // a list of strings, or one string standing for a list of one
	kindInt                  // an integer
	kindFloat                // a number
	kindIntList              // a list of integers from 1 to 1024
	kindBool                 // true or false
	kindID                   // an integer or a string: a user's or an item's id
	kindIDList               // a list of ids, possibly empty
)

func (k kind) String() string {
	return [...]string{"text", "text or a list of text", "an integer", "a number", "a list of integers from 1 to 1024", "a boolean", "an integer or text",
		"a list of integers or text"}[k]
}

// param is one argument of a SQL function and what it accepts.
type param struct {
	name     string
	kind     kind
	required bool
	// choices, when set, are the only values a text argument accepts.
	choices []string
	// min and max bound a numeric argument; minOpen and maxOpen exclude the bound itself.
	min, max         float64
	minOpen, maxOpen bool
	// def is the value of an optional argument that was not given.
	def any
	// positional says the argument is given by position, not name.
	positional bool
	// help says what the argument does, for the reference.
	help string
	// field is the options struct's field the argument binds to (a
	// pointer), and set stores a checked value or the default there.
	field any
	set   func(v any)
}

// signature is a SQL function's arguments: positional ones first, then
// named ones (name := value).
type signature struct {
	fn         string
	positional []param
	named      []param
	// result are the output columns when they do not depend on the call;
	// the bind step of such a function leaves table.cols to them.
	result []column
}

// config is the signature as duckdb-go registers it. The planner passes
// every argument as JSON text (see planner.CallerArgument), because
// duckdb-go reads neither lists nor named arguments left out; parse reads
// the JSON and names the argument in any error.
func (s signature) config() duckdb.TableFunctionConfig {
	varchar, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	cfg := duckdb.TableFunctionConfig{NamedArguments: map[string]duckdb.TypeInfo{callerArgument: varchar}}
	for range s.positional {
		cfg.Arguments = append(cfg.Arguments, varchar)
	}
	for _, p := range s.named {
		cfg.NamedArguments[p.name] = varchar
	}
	return cfg
}

// namedArguments are the names of s's named arguments.
func (s signature) namedArguments() []string {
	names := make([]string, len(s.named))
	for i, p := range s.named {
		names[i] = p.name
	}
	return names
}

// positionalArguments are the names of the positional arguments, in order.
func (s signature) positionalArguments() []string {
	names := make([]string, len(s.positional))
	for i, p := range s.positional {
		names[i] = p.name
	}
	return names
}

// args are a call's arguments as parse checked and converted them, by
// name: values holds string, []string, int64, float64, []int, bool, for
// kindID int64 or string, and for kindIDList []any of those, and the
// default of each optional argument the call left out that has one;
// explicit names the arguments the call gave. bindOptions moves them into
// the function's options struct, the only place the function reads them.
type args struct {
	values   map[string]any
	explicit map[string]bool
}

// parse checks the values DuckDB bound against s and converts them. NULL
// counts as not given. It fails with 42883 for a missing required argument
// or a value of the wrong type, and 22023 for a value out of range.
func (s signature) parse(named map[string]any, positional []any) (args, error) {
	out := args{values: map[string]any{}, explicit: map[string]bool{}}
	if len(positional) > len(s.positional) {
		return out, sqlstate.New(sqlstate.UndefinedFunction, "%s takes at most %d arguments, not %d", s.fn, len(s.positional), len(positional)).
			WithHint("Call it as %s.", s.usage())
	}
	for i, p := range s.positional {
		var v any
		if i < len(positional) {
			v = positional[i]
		}
		if err := s.set(out, p, v); err != nil {
			return out, err
		}
	}
	for _, p := range s.named {
		if err := s.set(out, p, named[p.name]); err != nil {
			return out, err
		}
	}
	return out, nil
}

func (s signature) set(out args, p param, text any) error {
	raw, err := decodeJSON(text)
	if err != nil {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: argument %s: %v", s.fn, p.name, err).
			WithHint("Call Mallard's functions through the Mallard server, which passes arguments as JSON.")
	}
	if raw == nil {
		if p.required {
			return sqlstate.New(sqlstate.UndefinedFunction, "%s: argument %s is required", s.fn, p.name).
				WithHint("Call it as %s.", s.usage())
		}
		if p.def != nil {
			out.values[p.name] = p.def
		}
		return nil
	}
	v, ok := convert(p.kind, raw)
	if !ok && p.kind == kindIntList {
		if err := s.intListRange(p, raw); err != nil {
			return err
		}
	}
	if !ok {
		return sqlstate.New(sqlstate.UndefinedFunction, "%s: argument %s must be %s, not %s",
			s.fn, p.name, p.kind, describe(raw)).WithHint("Call it as %s.", s.usage())
	}
	if err := s.check(p, v); err != nil {
		return err
	}
	out.values[p.name], out.explicit[p.name] = v, true
	return nil
}

// intListRange explains why a list of integers is not a kindIntList:
// it is empty, or an element is out of 1..1024 (22023). It returns nil
// for a value that is no list of integers at all.
func (s signature) intListRange(p param, raw any) error {
	list, ok := raw.([]any)
	if !ok {
		return nil
	}
	if len(list) == 0 {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := [] is empty; give at least one size, from 1 to 1024", s.fn, p.name)
	}
	for i, e := range list {
		n, ok := convert(kindInt, e)
		if !ok {
			return nil
		}
		if v := n.(int64); v < 1 || v > 1024 {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %s: element %d is %d, and each must be from 1 to 1024",
				s.fn, p.name, jsonText(list), i+1, v)
		}
	}
	return nil
}

// check applies p's choices and bounds to a converted value.
func (s signature) check(p param, v any) error {
	switch x := v.(type) {
	case string:
		if len(p.choices) > 0 && !slices.Contains(p.choices, x) {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %s is not accepted; use one of %s",
				s.fn, p.name, quote(x), quoteAll(p.choices))
		}
		if x == "" {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s must not be empty", s.fn, p.name)
		}
	case []string:
		if len(x) == 0 {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s must name at least one column", s.fn, p.name)
		}
	case int64:
		return s.bounds(p, float64(x), fmt.Sprint(x))
	case float64:
		return s.bounds(p, x, fmt.Sprint(x))
	}
	return nil
}

func (s signature) bounds(p param, x float64, text string) error {
	low := x < p.min || p.minOpen && x == p.min
	high := x > p.max || p.maxOpen && x == p.max
	if math.IsNaN(x) || low || high {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %s is out of range; it must be %s",
			s.fn, p.name, text, rangeText(p))
	}
	return nil
}

// rangeText is p's range as an error message writes it.
func rangeText(p param) string {
	return rangeWith(p, func(x float64) string { return fmt.Sprintf("%g", x) })
}

// rangeWith is p's range, "≥ min and ≤ max" (> and < for open bounds, the
// upper bound left out when there is none), each bound written by num.
func rangeWith(p param, num func(float64) string) string {
	lo, hi := "≥", "≤"
	if p.minOpen {
		lo = ">"
	}
	if p.maxOpen {
		hi = "<"
	}
	if p.max == math.MaxInt64 || math.IsInf(p.max, 1) {
		return lo + " " + num(p.min)
	}
	return lo + " " + num(p.min) + " and " + hi + " " + num(p.max)
}

// usage is the function's call syntax, for hints.
func (s signature) usage() string {
	var parts []string
	for _, p := range s.positional {
		parts = append(parts, p.name)
	}
	named := slices.Clone(s.named)
	sort.SliceStable(named, func(i, j int) bool { return named[i].required && !named[j].required })
	for _, p := range named {
		example := "..."
		if def, ok := p.def.(string); ok && len(p.choices) > 0 {
			example = quote(def)
		} else if len(p.choices) > 0 {
			example = quote(p.choices[0])
		}
		parts = append(parts, p.name+" := "+example)
	}
	return s.fn + "(" + strings.Join(parts, ", ") + ")"
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}
