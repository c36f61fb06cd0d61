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

// refuseUnknown fails with 42883 when the call gave named arguments s does
// not have: the planner passes their names in the caller argument instead
// of to DuckDB (see planner.CallerArgument), whose own message would list
// the internal caller argument and every argument's type as VARCHAR.
func (s signature) refuseUnknown(unknown []string) error {
	if len(unknown) == 0 {
		return nil
	}
	var known []string
	for _, p := range s.named {
		known = append(known, p.name+" ("+p.kind.String()+")")
	}
	sort.Strings(known)
	noun := "argument"
	if len(unknown) > 1 {
		noun = "arguments"
	}
	return sqlstate.New(sqlstate.UndefinedFunction, "%s has no %s named %s", s.fn, noun, strings.Join(unknown, ", ")).
		WithHint("Its named arguments are: %s.", strings.Join(known, ", "))
}
