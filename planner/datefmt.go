package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// datePattern is one pattern of Postgres' to_char/to_timestamp templates.
// In to_char it becomes a strftime format (strf, or fm after the FM
// prefix, which drops padding) or, where strftime has none, an expression
// of the value (expr); in to_timestamp and to_date it becomes the strptime
// format parse. An empty format means there is none. Patterns are read in
// upper or lower case (yyyy-mm-dd) but for the names, whose case is that of
// the result.
type datePattern struct {
	pg, strf, fm string
	expr         func(x *pg.Node, fm bool) *pg.Node
	parse        string
	exact        bool // matched in its own case only
}

// datePatterns are the patterns Mallard converts, longest first so that
// HH24 wins over HH, and a few it does not, so that SSSS is not read as SS
// twice. A template holding any other letter outside quotes is left to
// DuckDB (which has no to_char).
var datePatterns = []datePattern{
	{pg: "SSSSS"}, {pg: "SSSS"}, {pg: "IDDD"},
	{pg: "HH24", strf: "%H", fm: "%-H", parse: "%H"},
	{pg: "HH12", strf: "%I", fm: "%-I", parse: "%I"},
	{pg: "IYYY", strf: "%G", fm: "%G", parse: "%G"},
	{pg: "YYYY", strf: "%Y", fm: "%Y", parse: "%Y"},
	{pg: "MONTH", expr: nameCase(upper, "%B", 9), parse: "%B", exact: true},
	{pg: "Month", expr: nameCase("", "%B", 9), parse: "%B", exact: true},
	{pg: "month", expr: nameCase(lower, "%B", 9), parse: "%B", exact: true},
	{pg: "DDD", strf: "%j", fm: "%-j", parse: "%j"},
	{pg: "DAY", expr: nameCase(upper, "%A", 9), parse: "%A", exact: true},
	{pg: "Day", expr: nameCase("", "%A", 9), parse: "%A", exact: true},
	{pg: "day", expr: nameCase(lower, "%A", 9), parse: "%A", exact: true},
	{pg: "MON", expr: nameCase(upper, "%b", 0), parse: "%b", exact: true},
	{pg: "Mon", strf: "%b", fm: "%b", parse: "%b", exact: true},
	{pg: "mon", expr: nameCase(lower, "%b", 0), parse: "%b", exact: true},
	{pg: "DY", expr: nameCase(upper, "%a", 0), parse: "%a", exact: true},
	{pg: "Dy", strf: "%a", fm: "%a", parse: "%a", exact: true},
	{pg: "dy", expr: nameCase(lower, "%a", 0), parse: "%a", exact: true},
	{pg: "YY", strf: "%y", fm: "%-y", parse: "%y"},
	{pg: "MM", strf: "%m", fm: "%-m", parse: "%m"},
	{pg: "DD", strf: "%d", fm: "%-d", parse: "%d"},
	{pg: "HH", strf: "%I", fm: "%-I", parse: "%I"},
	{pg: "MI", strf: "%M", fm: "%-M", parse: "%M"},
	{pg: "SS", strf: "%S", fm: "%-S", parse: "%S"},
	{pg: "US", strf: "%f", fm: "%f", parse: "%f"},
	{pg: "MS", strf: "%g", fm: "%g", parse: "%g"},
	{pg: "IW", strf: "%V", expr: datePartText("week"), parse: "%V"},
	{pg: "ID", expr: datePartText("isodow")},
	{pg: "AM", strf: "%p", fm: "%p", parse: "%p", exact: true},
	{pg: "PM", strf: "%p", fm: "%p", parse: "%p", exact: true},
	{pg: "am", expr: nameCase(lower, "%p", 0), parse: "%p", exact: true},
	{pg: "pm", expr: nameCase(lower, "%p", 0), parse: "%p", exact: true},
	{pg: "TZ", strf: "%Z", fm: "%Z", parse: "%Z", exact: true},
	{pg: "tz", expr: nameCase(lower, "%Z", 0), parse: "%Z", exact: true},
	{pg: "Q", expr: datePartText("quarter")},
	{pg: "D", expr: dayOfWeek},
}

const (
	upper = "upper"
	lower = "lower"
)

// nameCase is the expression of a name pattern: the strftime name in the
// case fn (upper, lower or "" for as it is), blank-padded to pad
// characters unless after FM, as Postgres pads Month and Day to 9.
func nameCase(fn, strf string, pad int) func(x *pg.Node, fm bool) *pg.Node {
	return func(x *pg.Node, fm bool) *pg.Node {
		name := call([]string{"strftime"}, x, pg.MakeAConstStrNode(strf, -1))
		if pad > 0 && !fm {
			name = call([]string{"rpad"}, name, pg.MakeAConstIntNode(int64(pad), -1), pg.MakeAConstStrNode(" ", -1))
		}
		if fn != "" {
			name = call([]string{fn}, name)
		}
		return name
	}
}

// datePartText is the expression of a pattern that is a date part without
// padding, such as Q (the quarter).
func datePartText(part string) func(x *pg.Node, fm bool) *pg.Node {
	return func(x *pg.Node, _ bool) *pg.Node {
		return castTo(call([]string{"date_part"}, pg.MakeAConstStrNode(part, -1), x), "text")
	}
}

// dayOfWeek is D, the day of the week counted from Sunday as 1.
func dayOfWeek(x *pg.Node, _ bool) *pg.Node {
	dow := call([]string{"date_part"}, pg.MakeAConstStrNode("dow", -1), x)
	return castTo(pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("+"), dow, pg.MakeAConstIntNode(1, -1), -1), "text")
}

// datePiece is a converted part of a template: strftime text, or an
// expression of the value.
type datePiece struct {
	strf string
	expr *pg.Node
}

// dateTemplate converts a Postgres date template into pieces of x; false
// when it uses a pattern Mallard does not convert, or, when parse is set
// (to_timestamp), one strptime cannot read.
func dateTemplate(tmpl string, x *pg.Node, parse bool) ([]datePiece, bool) {
	var pieces []datePiece
	strf := func(s string) { // appends strftime text
		if n := len(pieces); n > 0 && pieces[n-1].expr == nil {
			pieces[n-1].strf += s
		} else {
			pieces = append(pieces, datePiece{strf: s})
		}
	}
	literal := func(s string) { strf(strings.ReplaceAll(s, "%", "%%")) }
	fm := false
	for i := 0; i < len(tmpl); {
		if strings.HasPrefix(tmpl[i:], "FM") || strings.HasPrefix(tmpl[i:], "fm") {
			fm, i = true, i+2
			continue
		}
		if tmpl[i] == '"' { // quoted literal text
			j := strings.IndexByte(tmpl[i+1:], '"')
			if j < 0 {
				return nil, false
			}
			literal(tmpl[i+1 : i+1+j])
			i += j + 2
			continue
		}
		p, ok := matchDatePattern(tmpl[i:])
		switch {
		case ok:
			piece, ok := p.convert(x, fm, parse)
			switch {
			case !ok:
				return nil, false
			case piece.expr != nil:
				pieces = append(pieces, piece)
			default:
				strf(piece.strf)
			}
			i += len(p.pg)
			fm = false
		case isLetter(tmpl[i]):
			return nil, false // a pattern Mallard does not convert (W, J, RM, TH, ...)
		default:
			literal(tmpl[i : i+1])
			i++
		}
	}
	return pieces, len(pieces) > 0
}

func matchDatePattern(s string) (datePattern, bool) {
	for _, p := range datePatterns {
		if len(s) >= len(p.pg) && (s[:len(p.pg)] == p.pg || !p.exact && s[:len(p.pg)] == strings.ToLower(p.pg)) {
			return p, true
		}
	}
	return datePattern{}, false
}

// convert is the piece p becomes after FM (if fm), for parsing or for
// to_char.
func (p datePattern) convert(x *pg.Node, fm, parse bool) (datePiece, bool) {
	switch {
	case parse:
		return datePiece{strf: p.parse}, p.parse != ""
	case fm && p.fm != "":
		return datePiece{strf: p.fm}, true
	case !fm && p.strf != "":
		return datePiece{strf: p.strf}, true
	case p.expr != nil:
		return datePiece{expr: p.expr(x, fm)}, true
	}
	return datePiece{}, false
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// dateFormatCall rewrites to_char(value, 'template') to strftime (and, for
// the patterns strftime lacks, expressions of the value, concatenated)
// and to_timestamp(text, 'template') / to_date to strptime, which DuckDB
// has with strftime's patterns instead of Postgres'. to_timestamp gives a
// timestamptz, read in the session's time zone, as in Postgres.
func (r *rewriter) dateFormatCall(n *pg.Node, name string) bool {
	fc := n.GetFuncCall()
	if len(fc.Args) != 2 {
		return false
	}
	c := fc.Args[1].GetAConst()
	if c == nil || c.GetSval() == nil {
		return false
	}
	x := fc.Args[0]
	if name == "to_char" && numericTemplate(c.GetSval().Sval) {
		return r.numberFormat(n, x, c.GetSval().Sval)
	}
	if name == "to_char" && mustEvaluateOnce(x.ProtoReflect()) {
		return false // a piece that is not strftime evaluates x again
	}
	pieces, ok := dateTemplate(c.GetSval().Sval, x, name != "to_char")
	if !ok {
		return false
	}
	var parts []*pg.Node
	for _, p := range pieces {
		switch {
		case p.expr != nil:
			parts = append(parts, p.expr)
		case name == "to_char":
			parts = append(parts, call([]string{"strftime"}, x, pg.MakeAConstStrNode(p.strf, -1)))
		default:
			parts = append(parts, pg.MakeAConstStrNode(p.strf, -1))
		}
	}
	switch {
	case name == "to_char" && len(parts) == 1:
		n.Node = parts[0].Node
	case name == "to_char":
		n.Node = call([]string{"concat"}, parts...).Node
	case len(parts) != 1:
		return false
	case name == "to_timestamp":
		n.Node = castTo(call([]string{"strptime"}, x, parts[0]), "timestamptz").Node
	default:
		n.Node = castTo(call([]string{"strptime"}, x, parts[0]), "date").Node
	}
	r.changed = true
	return true
}
