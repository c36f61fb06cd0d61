package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// typedFuncs are Postgres functions whose result type follows the type of
// their argument where DuckDB's does not (sum(int4) is bigint, avg(int4)
// numeric, round(float8) float8 rounding half to even, date_trunc of a date
// timestamptz), with their arity and the catalog macro that has Postgres'
// meaning. The planner does not know column types; the macro's typed
// overloads let DuckDB pick by the argument's type when it binds the call,
// and an untyped overload keeps DuckDB's own function for the other types.
// The scalar macros take, after the arguments, a witness of each argument's
// type (see witness); the aggregates take their argument alone.
var typedFuncs = map[string]struct {
	args      int
	macro     string
	aggregate bool
}{
	"sum":        {1, "mallard_pg_sum", true},
	"avg":        {1, "mallard_pg_avg", true},
	"round":      {1, "mallard_pg_round", false},
	"sign":       {1, "mallard_pg_sign", false},
	"date_trunc": {2, "mallard_pg_date_trunc", false},
}

// typedCall routes a call of one of typedFuncs to its macro, and types a
// window sum(x) OVER (...) as Postgres does. sum(x) FILTER (WHERE c) is
// sum(CASE WHEN c THEN x END), which is the same for sum and avg; a call
// with DISTINCT, ORDER BY, WITHIN GROUP, * or VARIADIC is left to DuckDB,
// as is a window avg: a macro takes none of them. It reports whether it
// rewrote n.
func (r *rewriter) typedCall(n *pg.Node, name string) bool {
	fc := n.GetFuncCall()
	f, ok := typedFuncs[name]
	if !ok || len(fc.Args) != f.args || !r.typedRewrites() ||
		fc.AggDistinct || len(fc.AggOrder) > 0 || fc.AggWithinGroup || fc.AggStar || fc.FuncVariadic {
		return false
	}
	args := fc.Args
	switch {
	case !f.aggregate:
		if fc.Over != nil || fc.AggFilter != nil {
			return false
		}
		w, ok := witness(args[len(args)-1])
		if !ok {
			return false
		}
		args = append(args, w)
	case fc.Over != nil:
		w, ok := witness(args[0])
		if name != "sum" || fc.AggFilter != nil || !ok {
			return false
		}
		// A window call cannot be a macro's body: the macro gets the call
		// and, to pick the type by, its argument.
		n.Node = pg.MakeFuncCallNode(r.p.catalogFunc("mallard_pg_sum_window"), []*pg.Node{{Node: n.Node}, w}, -1).Node
		r.changed = true
		return true
	default:
		if !aggregateFree(args[0]) || fc.AggFilter != nil && !aggregateFree(fc.AggFilter) {
			return false
		}
		if fc.AggFilter != nil {
			args = []*pg.Node{caseWhen(fc.AggFilter, args[0], nil)}
		}
	}
	n.Node = pg.MakeFuncCallNode(r.p.catalogFunc(f.macro), args, -1).Node
	r.changed = true
	return true
}

// dateMinus routes a - b to mallard_pg_minus, which makes the difference of
// two dates an integer as in Postgres (DuckDB's is BIGINT), unless an
// operand shows it is not a date (a constant or a cast to another type) or
// has no witness of its type.
func (r *rewriter) dateMinus(n *pg.Node) {
	e := n.GetAExpr()
	if !r.typedRewrites() || !mayBeDate(e.Lexpr) || !mayBeDate(e.Rexpr) {
		return
	}
	wl, okl := witness(e.Lexpr)
	wr, okr := witness(e.Rexpr)
	if !okl || !okr {
		return
	}
	n.Node = pg.MakeFuncCallNode(r.p.catalogFunc("mallard_pg_minus"), []*pg.Node{e.Lexpr, e.Rexpr, wl, wr}, -1).Node
	r.changed = true
}

// mayBeDate reports whether the operand x of a subtraction could be a date
// as far as its syntax tells.
func mayBeDate(x *pg.Node) bool {
	if tc := x.GetTypeCast(); tc != nil {
		return len(tc.TypeName.ArrayBounds) == 0 && lastName(tc.TypeName.Names) == "date"
	}
	return x.GetAConst() == nil
}

// witness returns an expression of x's type whose type DuckDB knows when it
// picks a macro's overload: x itself if it holds no aggregate, window or
// bare parameter, or the first argument of a type-keeping aggregate or
// window (d for min(d) or lag(d) OVER (...)). DuckDB binds aggregates and windows after the macro, so their
// type is unknown there and the first typed overload would be taken; a bare
// parameter would be typed by the overload instead of by its use.
func witness(x *pg.Node) (*pg.Node, bool) {
	if aggregateFree(x) {
		return x, true
	}
	fc := x.GetFuncCall()
	if fc == nil || !typeKeeping[lastName(fc.Funcname)] || len(fc.Funcname) > 1 || len(fc.Args) == 0 ||
		fc.AggStar || fc.AggWithinGroup || len(fc.AggOrder) > 0 || !aggregateFree(fc.Args[0]) {
		return nil, false
	}
	return fc.Args[0], true
}

// typeKeeping are the aggregates and window functions that return a value
// of their first argument's type.
var typeKeeping = map[string]bool{
	"min": true, "max": true, "any_value": true, "first": true, "last": true, "arbitrary": true, "mode": true,
	"lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true,
}

// aggregateFree reports whether x is not a bare parameter and calls no
// window and no function that may be an aggregate outside a subquery.
// Every call but scalarFuncs and Mallard's scalar typed macros may be an
// aggregate.
func aggregateFree(x *pg.Node) bool {
	return x.GetParamRef() == nil && !holdsAggregate(x.ProtoReflect())
}

// typedRewrites reports whether the rewrites to typed catalog macros apply:
// Mallard's catalog is attached, and the statement is not CREATE VIEW. A
// view keeps DuckDB's functions so that the database file stays readable
// by DuckDB without Mallard's catalog.
func (r *rewriter) typedRewrites() bool {
	return r.p.cat.Database != "" && r.root.GetViewStmt() == nil
}

// holdsAggregate reports whether m calls a window or a function that may be
// an aggregate, outside any subquery.
func holdsAggregate(m protoreflect.Message) bool {
	switch x := m.Interface().(type) {
	case *pg.SubLink:
		return false
	case *pg.FuncCall:
		name := lastName(x.Funcname)
		if x.Over != nil || !scalarFuncs[name] && !(strings.HasPrefix(name, "mallard_pg_") && !typedAggregates[name]) {
			return true
		}
	}
	found := false
	children(m, func(c protoreflect.Message) { found = found || holdsAggregate(c) })
	return found
}

// typedAggregates are the typed macros that aggregate.
var typedAggregates = map[string]bool{"mallard_pg_sum": true, "mallard_pg_avg": true, "mallard_pg_sum_window": true}

// scalarFuncs are common functions that are never aggregates, under the
// names the rewriter leaves them (extract is date_part by then).
var scalarFuncs = map[string]bool{
	"abs": true, "ceil": true, "ceiling": true, "floor": true, "trunc": true, "round": true, "sqrt": true,
	"power": true, "pow": true, "exp": true, "ln": true, "log": true, "log10": true, "mod": true, "sign": true,
	"length": true, "char_length": true, "octet_length": true, "strlen": true, "lower": true, "upper": true,
	"substr": true, "substring": true, "trim": true, "ltrim": true, "rtrim": true, "replace": true,
	"date_part": true, "date_trunc": true, "make_date": true, "to_timestamp": true, "to_date": true,
	"now": true, "current_date": true, "age": true, "epoch": true, "strptime": true, "strftime": true,
}
