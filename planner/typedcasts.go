package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// The aliases storage registers for Postgres' varchar and bpchar (see
// storage/pgtypes.go).
const (
	aliasVarchar = "pg_varchar"
	aliasBPChar  = "pg_bpchar"
)

// typedCast is an expression whose result gets a Postgres type once every
// other rule has run: a cast the client wrote to varchar or bpchar, or
// arithmetic on money; or a comparison of bpchar, whose operands lose
// their trailing spaces then.
type typedCast struct {
	node *pg.Node
	// target is varchar, bpchar or money, or compare for a comparison.
	target string
	// length is the n of varchar(n) or char(n); -1 for none.
	length int64
}

// noteTypedCast records, before the rules rewrite n, a cast to varchar or
// bpchar that the client wrote (not one another rule made) or money
// arithmetic, for typeNotedCasts; and it gives a cast of money to numeric
// money's two fraction digits, as Postgres' cash_numeric does, where
// DuckDB's numeric would have three. Casts in a table's definition (its
// defaults and checks) are left as DuckDB keeps them.
func (r *rewriter) noteTypedCast(n *pg.Node) {
	if r.root.GetCreateStmt() != nil || r.root.GetAlterTableStmt() != nil {
		return
	}
	switch {
	case isMoneyArithmetic(n):
		r.typed = append(r.typed, typedCast{node: n, target: "money"})
		return
	case isBPCharComparison(n):
		r.typed = append(r.typed, typedCast{node: n, target: "compare"})
		return
	}
	tc := n.GetTypeCast()
	if tc == nil || len(tc.TypeName.ArrayBounds) > 0 {
		return
	}
	switch target := lastName(tc.TypeName.Names); target {
	case "varchar", "bpchar":
		if length, ok := castLength(tc.TypeName); ok {
			r.typed = append(r.typed, typedCast{node: n, target: target, length: length})
		}
	case "numeric":
		if len(tc.TypeName.Typmods) == 0 && isMoney(tc.Arg) {
			tc.TypeName.Typmods = []*pg.Node{pg.MakeAConstIntNode(moneyPrecision, -1), pg.MakeAConstIntNode(moneyScale, -1)}
			r.changed = true
		}
	}
}

// The precision and scale of storage's money alias, a DECIMAL(18,2).
const (
	moneyPrecision = 18
	moneyScale     = 2
)

// castLength returns the length a cast to varchar or bpchar gives, -1 for
// none; false if it is not a constant.
func castLength(tn *pg.TypeName) (int64, bool) {
	switch len(tn.Typmods) {
	case 0:
		return -1, true
	case 1:
		if c := tn.Typmods[0].GetAConst(); c != nil && c.GetIval() != nil {
			return int64(c.GetIval().Ival), true
		}
	}
	return 0, false
}

// typeNotedCasts gives the expressions noteTypedCast recorded their
// Postgres types, after every other rule has run, so that the rules that
// look at how an argument is written (isTextArg, isNameArg) still see the
// client's casts. A cast to varchar(n) cuts the string to n characters and
// one to char(n) pads it with spaces to n characters or cuts it, as an
// explicit cast does in Postgres; both then take storage's varchar or
// bpchar alias, so that the value goes out as that type. Money arithmetic
// is cast back to money (see sqltype.AliasMoney).
func (r *rewriter) typeNotedCasts() {
	for i := len(r.typed) - 1; i >= 0; i-- { // an expression's operands before it
		c := r.typed[i]
		switch c.target {
		case "money":
			c.node.Node = castTo(&pg.Node{Node: c.node.Node}, aliasMoney).Node
			r.changed = true
			continue
		case "compare":
			r.trimComparison(c.node.GetAExpr())
			continue
		}
		tc := c.node.GetTypeCast()
		if tc == nil || lastName(tc.TypeName.Names) != c.target {
			continue // another rule replaced it
		}
		c.node.Node = stringCast(tc.Arg, c.target, c.length).Node
		r.changed = true
	}
}

// stringCast is the cast of arg to varchar or bpchar of the given length
// (-1 for none) as DuckDB runs it. A parameter is cast to the alias itself,
// so that DuckDB types it varchar or bpchar, as Postgres does.
func stringCast(arg *pg.Node, target string, length int64) *pg.Node {
	alias := aliasVarchar
	if target == "bpchar" {
		alias = aliasBPChar
	}
	inner := "text"
	if arg.GetParamRef() != nil {
		inner = alias
	}
	if length < 0 {
		if !isStringConst(arg) && inner == "text" {
			arg = castTo(arg, inner)
		}
		return castTo(arg, alias)
	}
	text := castTo(arg, inner)
	if target == "bpchar" {
		return castTo(call([]string{"rpad"}, text, pg.MakeAConstIntNode(length, -1), pg.MakeAConstStrNode(" ", -1)), alias)
	}
	return castTo(call([]string{"left"}, text, pg.MakeAConstIntNode(length, -1)), alias)
}

// isStringConst reports whether n is a string constant.
func isStringConst(n *pg.Node) bool {
	return n.GetAConst() != nil && n.GetAConst().GetSval() != nil
}

// isMoney reports whether n is money in Postgres by how it is written: a
// cast to money, or money arithmetic.
func isMoney(n *pg.Node) bool {
	if tc := n.GetTypeCast(); tc != nil {
		return lastName(tc.TypeName.Names) == "money" && len(tc.TypeName.ArrayBounds) == 0
	}
	return isMoneyArithmetic(n)
}

// isMoneyArithmetic reports whether n is arithmetic that Postgres computes
// in money: the sum or difference of money, the negation of money, money
// multiplied by a number either way, or divided by one.
func isMoneyArithmetic(n *pg.Node) bool {
	e := n.GetAExpr()
	if e == nil || e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 {
		return false
	}
	left := e.Lexpr != nil && isMoney(e.Lexpr)
	right := isMoney(e.Rexpr)
	switch lastName(e.Name) {
	case "+", "-", "*":
		return left || right
	case "/":
		return left && !right
	}
	return false
}

// bpcharComparisons are the operators that compare bpchar as Postgres'
// bpcharcmp does, without trailing spaces.
var bpcharComparisons = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true}

// isBPCharComparison reports whether n compares a cast to bpchar.
func isBPCharComparison(n *pg.Node) bool {
	e := n.GetAExpr()
	if e == nil || e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || !bpcharComparisons[lastName(e.Name)] {
		return false
	}
	return isBPCharCast(e.Lexpr) || isBPCharCast(e.Rexpr)
}

// isBPCharCast reports whether n is a cast to bpchar.
func isBPCharCast(n *pg.Node) bool {
	tc := n.GetTypeCast()
	return tc != nil && lastName(tc.TypeName.Names) == "bpchar" && len(tc.TypeName.ArrayBounds) == 0
}

// trimComparison compares the operands of a bpchar comparison as Postgres
// does: a bpchar without its trailing spaces (its cast to text drops them,
// see sqltype.AliasBPChar), and a string constant, which Postgres reads as
// bpchar there, too. Another operand is text, to which Postgres converts
// the bpchar.
func (r *rewriter) trimComparison(e *pg.A_Expr) {
	if e == nil {
		return
	}
	e.Lexpr, e.Rexpr = trimmedBPChar(e.Lexpr), trimmedBPChar(e.Rexpr)
	r.changed = true
}

// trimmedBPChar is n without trailing spaces if it is a bpchar or a string
// constant, else n.
func trimmedBPChar(n *pg.Node) *pg.Node {
	if tc := n.GetTypeCast(); tc != nil && lastName(tc.TypeName.Names) == aliasBPChar {
		return castTo(n, "text")
	}
	if isStringConst(n) {
		return pg.MakeAConstStrNode(strings.TrimRight(n.GetAConst().GetSval().Sval, " "), -1)
	}
	return n
}
