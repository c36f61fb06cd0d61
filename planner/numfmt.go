package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// numberTemplate is a Postgres to_char template for numbers of the form
// [FM][S]9...90...0[.digits], with group separators (,) between integer
// digits.
type numberTemplate struct {
	fm, sign bool
	// nines and zeros count the integer positions: leading positions that
	// show a leading zero as blank, then positions that show it as 0.
	nines, zeros int
	grouped      bool
	// frac are the fraction positions; keep is how many of them FM keeps
	// even when they are trailing zeros (up to the last 0 position).
	frac, keep int
	width      int // characters in the result without FM, the sign's included
	overflow   string
}

// numericTemplate reports whether tmpl is a to_char template for numbers
// rather than for dates and times.
func numericTemplate(tmpl string) bool {
	tmpl = strings.TrimPrefix(tmpl, "FM")
	return tmpl != "" && strings.Trim(tmpl, "90,.S") == "" && strings.ContainsAny(tmpl, "90")
}

// parseNumberTemplate reads the templates numberFormat converts; false for
// any other (MI, PL, EEEE, V, a sign after the digits, separators that do
// not group by thousands, zero-padding with separators, no integer
// position).
func parseNumberTemplate(tmpl string) (numberTemplate, bool) {
	var t numberTemplate
	t.fm = strings.HasPrefix(tmpl, "FM")
	body := strings.TrimPrefix(tmpl, "FM")
	t.sign = strings.HasPrefix(body, "S")
	body = strings.TrimPrefix(body, "S")
	intPart, fracPart, _ := strings.Cut(body, ".")
	digits := strings.ReplaceAll(intPart, ",", "")
	t.nines = len(digits) - len(strings.TrimLeft(digits, "9"))
	t.zeros = len(digits) - t.nines
	t.grouped = strings.Contains(intPart, ",")
	if t.nines+t.zeros == 0 || strings.Trim(digits[t.nines:], "0") != "" || strings.Trim(fracPart, "90") != "" {
		return t, false
	}
	if t.grouped && (t.zeros > 1 || intPart != groupDigits(digits)) {
		return t, false
	}
	t.frac, t.keep = len(fracPart), strings.LastIndexByte(fracPart, '0')+1
	t.width = len(body) + 1 // the sign's position, S or not
	t.overflow = strings.Map(func(c rune) rune {
		if c == '9' || c == '0' {
			return '#'
		}
		return c
	}, body)
	return t, true
}

// groupDigits writes digits with a comma between each group of three,
// counted from the right.
func groupDigits(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// numberFormat rewrites to_char(x, template) of a number to the text
// Postgres gives: x rounded to the template's fraction digits, leading
// zeros blank (or 0 where the template has 0), a sign position before the
// first digit (- or blank, or - or + for S), blank-padded to the
// template's width unless FM, and # in every digit position when x has
// more integer digits than the template. x is evaluated several times, so
// one that must be evaluated once is left alone, as is a template Mallard
// does not convert.
func (r *rewriter) numberFormat(n *pg.Node, x *pg.Node, tmpl string) bool {
	t, ok := parseNumberTemplate(tmpl)
	if !ok || mustEvaluateOnce(x.ProtoReflect()) {
		return false
	}
	str := pg.MakeAConstStrNode
	num := func(v int) *pg.Node { return pg.MakeAConstIntNode(int64(v), -1) }
	op := func(name string, l, r *pg.Node) *pg.Node {
		return pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names(name), l, r, -1)
	}
	rounded := call([]string{"round"}, x, num(t.frac))
	// The digits of |x| rounded, exactly: "1234.50".
	digits := castTo(castTo(call([]string{"abs"}, rounded), "numeric", 38, int64(t.frac)), "text")
	intDigits := call([]string{"split_part"}, digits, str(".", -1), num(1))
	intText := intDigits
	switch {
	case t.grouped:
		intText = call([]string{"printf"}, str("%,d", -1), castTo(intDigits, "int8"))
	case t.zeros > 1:
		intText = call([]string{"lpad"}, intDigits, num(t.zeros), str("0", -1))
	case t.zeros == 0 && t.frac > 0: // no digit before the point for |x| < 1: " .50"
		intText = caseWhen(op("=", intDigits, str("0", -1)), str("", -1), intDigits)
	}
	parts := []*pg.Node{numberSign(t, op("<", rounded, num(0))), intText}
	if t.frac > 0 {
		frac := call([]string{"split_part"}, digits, str(".", -1), num(2))
		if t.fm && t.keep < t.frac {
			// FM drops trailing zeros but where the template has 0.
			rest := call([]string{"rtrim"}, call([]string{"substr"}, frac, num(t.keep+1)), str("0", -1))
			frac = call([]string{"concat"}, call([]string{"left"}, frac, num(t.keep)), rest)
		}
		parts = append(parts, str(".", -1), frac)
	}
	text := call([]string{"concat"}, parts...)
	if !t.fm {
		text = call([]string{"lpad"}, text, num(t.width), str(" ", -1))
	}
	tooLong := op(">", call([]string{"length"}, intDigits), num(t.nines+t.zeros))
	overflow := call([]string{"concat"}, numberSign(t, op("<", rounded, num(0))), str(t.overflow, -1))
	n.Node = caseWhen(tooLong, overflow, text).Node
	r.changed = true
	return true
}

// numberSign is the sign before the digits: - for a negative number, and
// for any other + with S, else a blank (nothing with FM).
func numberSign(t numberTemplate, negative *pg.Node) *pg.Node {
	other := " "
	switch {
	case t.sign:
		other = "+"
	case t.fm:
		other = ""
	}
	return caseWhen(negative, pg.MakeAConstStrNode("-", -1), pg.MakeAConstStrNode(other, -1))
}

// caseWhen is CASE WHEN cond THEN then ELSE otherwise END.
func caseWhen(cond, then, otherwise *pg.Node) *pg.Node {
	c := pg.MakeCaseExprNode(nil, []*pg.Node{pg.MakeCaseWhenNode(cond, then, -1)}, -1)
	c.GetCaseExpr().Defresult = otherwise
	return c
}
