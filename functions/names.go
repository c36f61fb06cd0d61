package functions

import (
	"sort"
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// checkModelName refuses a name that no later call could name: '@'
// separates a model's name from a version ('name@3', see mlops.ParseRef),
// so a model named 'a@b' would train and then be unreachable. fn is the
// training function, for the message.
func checkModelName(fn, name string) error {
	if !strings.Contains(name, "@") {
		return nil
	}
	return sqlstate.New(sqlstate.InvalidName, "%s: model name %s contains @, which separates a model's name from its version ('name@3')",
		fn, quote(name)).WithHint("Choose a name without @, such as %s.", quote(strings.ReplaceAll(name, "@", "_")))
}

// refusePositional fails with 42883 when the call gave given positional
// values and s takes another number (given is -1 when it did not): the
// planner passes the count in the caller argument (see
// planner.CallerArgument). Postgres takes positional values before named
// ones; Mallard's named arguments have no order that a value could be
// matched to by its place, so the hint shows how to name them.
func (s signature) refusePositional(given int) error {
	if given < 0 {
		return nil
	}
	want := s.positionalArguments()
	noun := "arguments"
	if len(want) == 1 {
		noun = "argument"
	}
	e := sqlstate.New(sqlstate.UndefinedFunction, "%s takes %d positional %s (%s), but the call gives %d",
		s.fn, len(want), noun, strings.Join(want, ", "), given)
	if given < len(want) || len(s.named) == 0 {
		return e.WithHint("Call it as %s.", s.usage())
	}
	after := "every argument"
	if len(want) > 0 {
		after = "the arguments after " + strings.Join(want, ", ")
	}
	return e.WithHint("Give %s by name, as name := value (%s := ...). Its named arguments are: %s.",
		after, s.named[0].name, strings.Join(s.namedList(), ", "))
}

// namedList is the named arguments with what each accepts, sorted.
func (s signature) namedList() []string {
	var known []string
	for _, p := range s.named {
		known = append(known, p.name+" ("+p.kind.String()+")")
	}
	sort.Strings(known)
	return known
}

// refuseUnknown fails with 42883 when the call gave named arguments s does
// not have: the planner passes their names in the caller argument instead
// of to DuckDB (see planner.CallerArgument), whose own message would list
// the internal caller argument and every argument's type as VARCHAR.
func (s signature) refuseUnknown(unknown []string) error {
	if len(unknown) == 0 {
		return nil
	}
	known := s.namedList()
	noun := "argument"
	if len(unknown) > 1 {
		noun = "arguments"
	}
	return sqlstate.New(sqlstate.UndefinedFunction, "%s has no %s named %s", s.fn, noun, strings.Join(unknown, ", ")).
		WithHint("Its named arguments are: %s.", strings.Join(known, ", "))
}
