//go:build duckdb_arrow

package functions

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write docs/functions-reference.md from the declarations")

// referencePath is the documentation's reference of every function's
// arguments, made from their declarations.
const referencePath = "../docs/functions-reference.md"

// TestReference: docs/functions-reference.md is the reference the
// declarations make, so every declared argument appears there with its
// type, default, accepted values and help. After changing a declaration,
// run go test -tags duckdb_arrow ./functions -run TestReference -update.
func TestReference(t *testing.T) {
	want := reference(allSignatures())
	if *update {
		if err := os.WriteFile(referencePath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s differs from the declarations; run go test -tags duckdb_arrow ./functions -run TestReference -update", referencePath)
	}
}

// reference is the Markdown reference of sigs.
func reference(sigs []signature) string {
	var b strings.Builder
	b.WriteString("# Function reference\n\n" +
		"Every argument of Mallard's SQL functions, as each function declares it. This page is made from\n" +
		"those declarations (`go test -tags duckdb_arrow ./functions -run TestReference -update`) and a\n" +
		"test keeps it so: do not edit it by hand. Positional arguments come first; the others are given\n" +
		"by name (`name := value`). A value of the wrong type is refused with SQLSTATE 42883, a value out\n" +
		"of range or not among the accepted ones with 22023; both messages name the argument, the value\n" +
		"and what is accepted.\n")
	for _, s := range sigs {
		fmt.Fprintf(&b, "\n## %s\n\n`%s`\n\n", s.fn, s.usage())
		b.WriteString("| argument | type | default | accepts | what it does |\n|---|---|---|---|---|\n")
		for _, p := range slices.Concat(s.positional, s.named) {
			name := p.name
			if p.positional {
				name += " (positional)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", name, p.kind.pgType(), docDefault(p), accepts(p), p.help)
		}
		if s.result != nil {
			cols := make([]string, len(s.result))
			for i, c := range s.result {
				cols[i] = c.name + " " + string(c.typ)
			}
			fmt.Fprintf(&b, "\nReturns: %s.\n", strings.Join(cols, ", "))
		}
	}
	return b.String()
}

// docDefault is p's default as a call would write it.
func docDefault(p param) string {
	switch d := p.def.(type) {
	case nil:
		if p.required {
			return "required"
		}
		return "none"
	case string:
		return quote(d)
	case []int:
		parts := make([]string, len(d))
		for i, n := range d {
			parts[i] = strconv.Itoa(n)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(p.def)
}

// accepts is what p accepts beyond its type: its choices or its range.
func accepts(p param) string {
	switch {
	case len(p.choices) > 0:
		return quoteAll(p.choices)
	case p.kind == kindInt || p.kind == kindFloat:
		return docRange(p)
	case p.kind == kindIntList:
		return "each from 1 to 1024"
	}
	return ""
}

// docRange is p's range, its bounds written out in full.
func docRange(p param) string {
	return rangeWith(p, func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) })
}
