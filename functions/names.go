package functions

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mallard/mallard/sqlstate"
)

// MaxNameLength is the most bytes a new model's or scaler's name may
// have, as Postgres' identifiers (NAMEDATALEN - 1).
const MaxNameLength = 63

// checkNewName fails with 22023 unless name, the value of argument arg
// of fn that names something fn creates, is at most MaxNameLength bytes
// of valid UTF-8 without control characters: such names reach log lines,
// file names and the dashboard, where a newline could forge a record.
// The message shows the value escaped and, when long, truncated.
func checkNewName(fn, arg, name string) error {
	bad := ""
	switch {
	case len(name) > MaxNameLength:
		bad = "is " + strconv.Itoa(len(name)) + " bytes long"
	case !utf8.ValidString(name):
		bad = "is not valid UTF-8"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		bad = "contains a control character"
	default:
		return nil
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %s %s; a name is at most %d bytes without control characters",
		fn, arg, truncatedValue(name), bad, MaxNameLength)
}

// truncatedValue is name as a Go-quoted string (control characters
// escaped), cut to its first 40 bytes with "..." when longer.
func truncatedValue(name string) string {
	const show = 40
	if len(name) <= show {
		return strconv.Quote(name)
	}
	cut := show
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return strconv.Quote(name[:cut]) + "..."
}

// checkModelName refuses a name that no later call could name: '@'
// separates a model's name from a version ('name@3', see mlops.ParseRef),
// so a model named 'a@b' would train and then be unreachable; and one
// checkNewName refuses. fn is the training function, for the message.
func checkModelName(fn, name string) error {
	if err := checkNewName(fn, "model", name); err != nil {
		return err
	}
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
