package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// polyfills are Postgres functions of one argument that DuckDB lacks, as
// DuckDB expressions of that argument, written x; see expandSteps for the
// {names}.
var polyfills = map[string]string{
	// Words are runs of letters and digits. DuckDB reads w -> ... inside
	// list_transform as a lambda (its older spelling, which the Postgres
	// parser reads as an operator and the deparser writes back as it was).
	"initcap": `array_to_string(list_transform(regexp_extract_all(x, '[\p{L}\p{N}]+|[^\p{L}\p{N}]+'),
		w -> (upper(w[1]) || lower(w[2:]))), '')`,
	// Whole days of the time become days; the time takes the days' sign.
	"justify_hours": `to_months({months}) + to_days({days_h} - {adjust_h}) + to_microseconds({time_h} + {adjust_h} * 86400000000)`,
	// Whole 30 days become months; the days take the months' sign.
	"justify_days": `to_months({months_d} - {adjust_d}) + to_days({days_d} + 30 * {adjust_d}) + to_microseconds({micros})`,
}

// intervalSteps spell the fields of an interval x, and the steps of
// Postgres' justify_hours and justify_days (interval.c), in DuckDB, whose
// integer division truncates as C's does. They are replaced in this
// order, so each may use those after it.
var intervalSteps = [][2]string{
	{"{adjust_h}", "(CASE WHEN {days_h} > 0 AND {time_h} < 0 THEN 1 WHEN {days_h} < 0 AND {time_h} > 0 THEN -1 ELSE 0 END)"},
	{"{adjust_d}", "(CASE WHEN {months_d} > 0 AND {days_d} < 0 THEN 1 WHEN {months_d} < 0 AND {days_d} > 0 THEN -1 ELSE 0 END)"},
	{"{days_h}", "({days} + {micros} / 86400000000)"},
	{"{time_h}", "({micros} % 86400000000)"},
	{"{months_d}", "({months} + {days} / 30)"},
	{"{days_d}", "({days} % 30)"},
	{"{months}", "(date_part('year', x) * 12 + date_part('month', x))"},
	{"{days}", "date_part('day', x)"},
	{"{micros}", "(date_part('hour', x) * 3600000000 + date_part('minute', x) * 60000000 + date_part('microseconds', x))"},
}

// expandSteps replaces the {names} of intervalSteps in tmpl.
func expandSteps(tmpl string) string {
	for _, s := range intervalSteps {
		tmpl = strings.ReplaceAll(tmpl, s[0], s[1])
	}
	return tmpl
}

// polyfill rewrites a call of one of the polyfills to its expression of
// the call's argument, unless the argument must be evaluated once: the
// expressions evaluate it several times.
func (r *rewriter) polyfill(n *pg.Node, name string) bool {
	tmpl, ok := polyfills[name]
	fc := n.GetFuncCall()
	if !ok || len(fc.Args) != 1 || fc.Over != nil || mustEvaluateOnce(fc.Args[0].ProtoReflect()) {
		return false
	}
	expr := parseExpr(expandSteps(tmpl))
	if expr == nil {
		return false
	}
	substitute(expr.ProtoReflect(), fc.Args[0])
	n.Node = expr.Node
	r.changed = true
	return true
}

// substitute replaces every column x below m with arg.
func substitute(m protoreflect.Message, arg *pg.Node) {
	if n, ok := m.Interface().(*pg.Node); ok {
		if f := n.GetColumnRef().GetFields(); len(f) == 1 && f[0].GetString_().GetSval() == "x" {
			n.Node = arg.Node
			return
		}
	}
	children(m, func(c protoreflect.Message) { substitute(c, arg) })
}
