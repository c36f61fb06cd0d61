package plan

import (
	"strconv"
	"strings"
)

// NoValue is the text that ProbeParams puts in place of a text
// parameter: no table, column, model or setting is named so.
const NoValue = "<mallard: no value before Bind>"

// ProbeParams returns text with each parameter $n outside quotes and
// comments replaced by a stand-in of types[n-1]: the statement the engine
// can plan, and so describe, before the parameters have values. A
// parameter of a number, boolean or time type stands in as a NULL of it
// (CAST(NULL AS INTEGER)), which Mallard's functions take for an argument
// left out, as its default; a text parameter, or one whose type types
// leaves empty, as the string NoValue, which names nothing, so that a
// statement whose result columns depend on its value (a source, a
// model, time columns) fails to plan rather than being planned with a
// default. A parameter number past types is left as written.
func ProbeParams(text string, types []string) string {
	var b strings.Builder
	l := lexer{src: text}
	last := 0
	for t := l.next(); t.kind != tokEOF; t = l.next() {
		if !t.is("$") || t.pos+1 >= len(text) || !isDigit(text[t.pos+1]) {
			continue
		}
		n := l.next()
		if n.kind != tokWord || n.pos != t.pos+1 {
			continue
		}
		i, err := strconv.Atoi(n.text)
		if err != nil || i < 1 || i > len(types) {
			continue
		}
		b.WriteString(text[last:t.pos])
		if t := types[i-1]; t == "" || t == "VARCHAR" {
			b.WriteString("'" + NoValue + "'")
		} else {
			b.WriteString("CAST(NULL AS " + types[i-1] + ")")
		}
		last = n.pos + len(n.text)
	}
	b.WriteString(text[last:])
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
