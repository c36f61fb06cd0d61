package planner

import (
	"math"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// dateFields are the fields of EXTRACT and date_part that Postgres and
// DuckDB both know and count alike, under Postgres' spellings of them, each
// as the field it is computed from and the scale of EXTRACT's numeric
// result. DuckDB's second and millisecond fields are whole numbers, so
// fractional seconds are computed from microseconds (which count the
// seconds too).
var dateFields = map[string]struct {
	from  string
	scale int
}{
	"second": {"microseconds", 6}, "seconds": {"microseconds", 6}, "sec": {"microseconds", 6},
	"secs": {"microseconds", 6}, "s": {"microseconds", 6},
	"millisecond": {"microseconds", 3}, "milliseconds": {"microseconds", 3}, "ms": {"microseconds", 3},
	"msec": {"microseconds", 3}, "msecs": {"microseconds", 3},
	"microsecond": {"microseconds", 0}, "microseconds": {"microseconds", 0}, "us": {"microseconds", 0},
	"usec": {"microseconds", 0}, "usecs": {"microseconds", 0},
	"epoch": {"epoch", 6}, "minute": {"minute", 0}, "hour": {"hour", 0}, "day": {"day", 0}, "month": {"month", 0},
	"year": {"year", 0}, "quarter": {"quarter", 0}, "week": {"week", 0}, "dow": {"dow", 0},
	"isodow": {"isodow", 0}, "doy": {"doy", 0}, "isoyear": {"isoyear", 0}, "decade": {"decade", 0},
	"century": {"century", 0}, "millennium": {"millennium", 0}, "timezone": {"timezone", 0},
	"timezone_hour": {"timezone_hour", 0}, "timezone_minute": {"timezone_minute", 0},
}

// datePart gives EXTRACT(field FROM x) Postgres' numeric result and
// date_part(field, x) its double precision one, with fractional seconds,
// where DuckDB's date_part returns a BIGINT of whole seconds: EXTRACT
// becomes a decimal of the field's scale (second 1.250000), date_part a
// DOUBLE. Fields DuckDB alone has are left to it.
func (r *rewriter) datePart(n *pg.Node, name string) bool {
	fc := n.GetFuncCall()
	if len(fc.Args) != 2 {
		return false
	}
	c := fc.Args[0].GetAConst()
	if c == nil || c.GetSval() == nil {
		return false
	}
	f, ok := dateFields[strings.ToLower(c.GetSval().Sval)]
	if !ok {
		return false
	}
	part := call([]string{"date_part"}, pg.MakeAConstStrNode(f.from, -1), fc.Args[1])
	fraction := f.from == "microseconds" && f.scale > 0 // seconds or milliseconds from microseconds
	switch {
	case name == "date_part" && fraction:
		divisor := pg.MakeAConstIntNode(int64(math.Pow10(f.scale)), -1)
		n.Node = pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("/"), castTo(part, "float8"), divisor, -1).Node
	case name == "date_part":
		n.Node = castTo(part, "float8").Node
	case fraction:
		// Exact: DuckDB divides decimals in DOUBLE, so multiply by 10^-scale.
		unit := floatConst("0." + strings.Repeat("0", f.scale-1) + "1")
		n.Node = pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("*"), castTo(part, "numeric", 38, 0), unit, -1).Node
	default:
		n.Node = castTo(part, "numeric", 38, int64(f.scale)).Node
	}
	r.changed = true
	return true
}

// castTo casts n to the named type, with the given type modifiers.
func castTo(n *pg.Node, typ string, mods ...int64) *pg.Node {
	tn := &pg.TypeName{Names: typeNames(typ), Typemod: -1, Location: -1}
	for _, m := range mods {
		tn.Typmods = append(tn.Typmods, pg.MakeAConstIntNode(m, -1))
	}
	return &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{Arg: n, TypeName: tn, Location: -1}}}
}

// floatConst is a numeric constant written with a decimal point.
func floatConst(v string) *pg.Node {
	return &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Val: &pg.A_Const_Fval{Fval: &pg.Float{Fval: v}}, Location: -1}}}
}
