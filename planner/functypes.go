package planner

import (
	"strconv"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// int4Funcs return integer in Postgres and BIGINT in DuckDB; their results
// are cast so that clients see Postgres' type.
var int4Funcs = map[string]bool{
	"length": true, "char_length": true, "character_length": true, "octet_length": true,
	"bit_length": true, "strpos": true, "position": true, "array_length": true, "ntile": true,
}

// functionForms rewrites calls of Postgres functions that DuckDB has with
// another result type or reads differently: typedFuncs go to their typed
// macros (see typedCall), int4Funcs are cast to integer,
// octet_length of text counts its bytes, to_hex is lower case (see toHex)
// and substring(text, pattern) extracts a regular expression match.
func (r *rewriter) functionForms(n *pg.Node, name string) {
	if r.typedCall(n, name) {
		return
	}
	fc := n.GetFuncCall()
	switch {
	case name == "octet_length" && len(fc.Args) == 1 && isTextArg(fc.Args[0]):
		fc.Funcname = names("strlen") // DuckDB's octet_length takes only BLOB and BIT
	case name == "to_hex" && len(fc.Args) == 1:
		n.Node = call([]string{"lower"}, toHex(fc.Args[0])).Node
		r.changed = true
		return
	case name == "substring" && len(fc.Args) == 2 && isTextArg(fc.Args[1]):
		if pattern, ok := stringConst(fc.Args[1]); ok {
			r.regexSubstring(n, pattern)
		}
		return
	}
	if int4Funcs[name] {
		n.Node = castTo(&pg.Node{Node: n.Node}, "int4").Node
		r.changed = true
	}
}

// isTextArg reports whether n is text to Postgres' function resolution
// without knowing column types: a string constant, which Postgres reads as
// text where a function takes text or something else, or a cast to text.
func isTextArg(n *pg.Node) bool {
	if c := n.GetAConst(); c != nil {
		return c.GetSval() != nil
	}
	if tc := n.GetTypeCast(); tc != nil && len(tc.TypeName.ArrayBounds) == 0 {
		switch lastName(tc.TypeName.Names) {
		case "text", "varchar", "bpchar", "name":
			return true
		}
	}
	return false
}

// stringConst returns the value of a string constant, cast or not.
func stringConst(n *pg.Node) (string, bool) {
	if tc := n.GetTypeCast(); tc != nil {
		n = tc.Arg
	}
	if c := n.GetAConst(); c != nil && c.GetSval() != nil {
		return c.GetSval().Sval, true
	}
	return "", false
}

// regexSubstring rewrites substring(s FROM pattern), whose text pattern
// makes it Postgres' regular-expression form, to the first match of the
// pattern in s, or of its first parenthesized subexpression if it has one;
// NULL if there is no match. DuckDB's substring takes only positions.
func (r *rewriter) regexSubstring(n *pg.Node, pattern string) {
	fc := n.GetFuncCall()
	group := int64(0)
	if hasCaptureGroup(pattern) {
		group = 1
	}
	// regexp_extract_all is empty where nothing matches, so [1] is NULL;
	// regexp_extract would return ''.
	all := call([]string{"regexp_extract_all"}, fc.Args[0], fc.Args[1], pg.MakeAConstIntNode(group, -1))
	n.Node = &pg.Node_AIndirection{AIndirection: &pg.A_Indirection{Arg: all, Indirection: []*pg.Node{
		{Node: &pg.Node_AIndices{AIndices: &pg.A_Indices{Uidx: pg.MakeAConstIntNode(1, -1)}}},
	}}}
	r.changed = true
}

// hasCaptureGroup reports whether a regular expression has a capturing
// group: an opening parenthesis that is not escaped, not inside a bracket
// expression and not the start of a (?...) group.
func hasCaptureGroup(re string) bool {
	inBracket := false
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++
		case inBracket:
			inBracket = c != ']'
		case c == '[':
			inBracket = true
			if i+1 < len(re) && re[i+1] == '^' {
				i++
			}
			if i+1 < len(re) && re[i+1] == ']' { // a leading ] is a member
				i++
			}
		case c == '(' && (i+1 == len(re) || re[i+1] != '?'):
			return true
		}
	}
	return false
}

// toHex is to_hex(x) with Postgres' width: to_hex(int4) shows 32 bits of
// two's complement (ffffffff for -1), to_hex(int8) 64, where DuckDB shows
// every integer as 64 bits. The type is known only to DuckDB, so the call
// asks typeof(x); an argument that must be evaluated once, or a parameter,
// whose type the comparison would decide, is left to DuckDB.
func toHex(x *pg.Node) *pg.Node {
	if f := x.GetAConst().GetFval(); f != nil {
		if v, err := strconv.ParseInt(f.Fval, 10, 32); err == nil && v == int64(int32(v)) {
			x = castTo(x, "int4") // -2147483648: integer to Postgres, BIGINT to DuckDB
		}
	}
	plain := call([]string{"to_hex"}, x)
	if x.GetParamRef() != nil || mustEvaluateOnce(x.ProtoReflect()) {
		return plain
	}
	int4 := parseExpr("typeof(x) IN ('INTEGER', 'SMALLINT', 'TINYINT')")
	low32 := parseExpr("to_hex(CAST(x AS BIGINT) & 4294967295)")
	if int4 == nil || low32 == nil {
		return plain
	}
	substitute(int4.ProtoReflect(), x)
	substitute(low32.ProtoReflect(), x)
	return caseWhen(int4, low32, plain)
}
