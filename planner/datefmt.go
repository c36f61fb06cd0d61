package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// pgDatePatterns map Postgres' to_char/to_timestamp template patterns to
// strftime's, longest first so that HH24 wins over HH.
var pgDatePatterns = []struct{ pg, strftime string }{
	{"YYYY", "%Y"}, {"HH24", "%H"}, {"HH12", "%I"}, {"Month", "%B"}, {"MONTH", "%B"}, {"month", "%B"},
	{"Mon", "%b"}, {"MON", "%b"}, {"mon", "%b"}, {"Day", "%A"}, {"DAY", "%A"}, {"day", "%A"},
	{"DDD", "%j"}, {"Dy", "%a"}, {"DY", "%a"}, {"dy", "%a"}, {"YY", "%y"}, {"MM", "%m"}, {"DD", "%d"},
	{"HH", "%I"}, {"MI", "%M"}, {"SS", "%S"}, {"US", "%f"}, {"MS", "%g"}, {"AM", "%p"}, {"PM", "%p"},
	{"am", "%p"}, {"pm", "%p"}, {"TZ", "%Z"}, {"tz", "%Z"},
}

// strftimeFormat converts a Postgres date template to a strftime format;
// false when it uses a pattern Mallard does not convert.
func strftimeFormat(tmpl string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(tmpl); {
		if tmpl[i] == '"' { // quoted literal text
			j := strings.IndexByte(tmpl[i+1:], '"')
			if j < 0 {
				return "", false
			}
			b.WriteString(strings.ReplaceAll(tmpl[i+1:i+1+j], "%", "%%"))
			i += j + 2
			continue
		}
		matched := false
		for _, p := range pgDatePatterns {
			if strings.HasPrefix(tmpl[i:], p.pg) {
				b.WriteString(p.strftime)
				i += len(p.pg)
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		c := tmpl[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
			return "", false // a pattern letter we do not convert (Q, W, J, FM, ...)
		}
		if c == '%' {
			b.WriteString("%%")
		} else {
			b.WriteByte(c)
		}
		i++
	}
	return b.String(), true
}

// dateFormatCall rewrites to_char(value, 'template') to strftime and
// to_timestamp(text, 'template') / to_date to strptime, which DuckDB has
// with strftime's patterns instead of Postgres'.
func (r *rewriter) dateFormatCall(n *pg.Node, name string) bool {
	fc := n.GetFuncCall()
	if len(fc.Args) != 2 {
		return false
	}
	c := fc.Args[1].GetAConst()
	if c == nil || c.GetSval() == nil {
		return false
	}
	format, ok := strftimeFormat(c.GetSval().Sval)
	if !ok {
		return false
	}
	args := []*pg.Node{fc.Args[0], pg.MakeAConstStrNode(format, -1)}
	switch name {
	case "to_char":
		n.Node = call([]string{"strftime"}, args...).Node
	case "to_timestamp":
		n.Node = call([]string{"strptime"}, args...).Node
	case "to_date":
		n.Node = &pg.Node_TypeCast{TypeCast: &pg.TypeCast{Arg: call([]string{"strptime"}, args...),
			TypeName: &pg.TypeName{Names: typeNames("date"), Typemod: -1, Location: -1}, Location: -1}}
	default:
		return false
	}
	r.changed = true
	return true
}
