package planner

import (
	"strconv"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// divisionByZero is the error a guarded division raises. Its text ends in
// the SQLSTATE, which storage reads back as the error's code.
const divisionByZero = "division by zero (SQLSTATE 22012)"

// volatileFuncs change value from one evaluation to the next (or have
// effects); a divisor that calls one is not evaluated twice.
var volatileFuncs = map[string]bool{
	"random": true, "setseed": true, "nextval": true, "gen_random_uuid": true, "uuid": true,
}

// guardDivisor makes x / d, x % d and mod(x, d) fail with 22012 when d is
// zero, as in Postgres, where DuckDB returns NULL: d becomes
// CASE WHEN d = 0 THEN error(...) ELSE d END. It returns the guarded
// divisor, or d itself when no guard is needed or allowed: of the
// constants only a numeric zero is guarded (a string constant takes the
// dividend's type, which the CASE would hide); a divisor that calls a
// volatile function or holds a subquery must not be evaluated twice; and
// a bare parameter would be typed by the comparison instead of by the
// division.
func (r *rewriter) guardDivisor(d *pg.Node) *pg.Node {
	if d == nil || d.GetAConst() != nil && !zeroConst(d.GetAConst()) || d.GetParamRef() != nil || mustEvaluateOnce(d.ProtoReflect()) {
		return d
	}
	zero := pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("="), d, pg.MakeAConstIntNode(0, -1), -1)
	fail := call([]string{"error"}, pg.MakeAConstStrNode(divisionByZero, -1))
	r.changed = true
	return caseWhen(zero, fail, d)
}

// zeroConst reports whether c is a numeric zero.
func zeroConst(c *pg.A_Const) bool {
	switch {
	case c.GetIval() != nil:
		return c.GetIval().Ival == 0
	case c.GetFval() != nil:
		v, err := strconv.ParseFloat(c.GetFval().Fval, 64)
		return err == nil && v == 0
	}
	return false
}

// mustEvaluateOnce reports whether the expression m calls a volatile
// function or holds a subquery.
func mustEvaluateOnce(m protoreflect.Message) bool {
	switch x := m.Interface().(type) {
	case *pg.SubLink:
		return true
	case *pg.FuncCall:
		if volatileFuncs[lastName(x.Funcname)] {
			return true
		}
	}
	found := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil || fd.IsMap():
		case fd.IsList():
			for l, i := v.List(), 0; i < l.Len() && !found; i++ {
				found = mustEvaluateOnce(l.Get(i).Message())
			}
		default:
			found = mustEvaluateOnce(v.Message())
		}
		return !found
	})
	return found
}
