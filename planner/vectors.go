package planner

import (
	"maps"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Postgres' int2vector and oidvector number their elements from 0:
// pg_index.indkey[0] is an index's first column, and generate_subscripts
// over it counts from 0. The catalog gives those columns the types storage
// registers for them, lists of pg_int2vector_elem and pg_oidvector_elem,
// whose elements DuckDB numbers from 1. So the planner shifts a subscript
// of such a column, and what generate_subscripts returns for one, by the
// catalog's mallard_first_subscript. That macro decides by the value's
// type, so a user's list keeps subscripts from 1 even in a column named
// indkey.
//
// The planner cannot see types, so it picks the expressions to shift by
// name: a cast to int2vector or oidvector, a column named as one of the
// catalog's vector columns, or an alias the statement gives one (pgjdbc's
// getIndexInfo reads i.indoption AS I_INDOPTION in a subquery and
// subscripts I_INDOPTION outside it). It does not shift every subscript:
// the shifted subscript is arithmetic, which a map's or struct's key is
// not. DuckDB has no table function generate_subscripts, so a call of it
// in FROM becomes the series of subscripts, from
// mallard_first_subscript(x), unnested (see fromSubscripts).

// vectorColumns are the catalog's columns of type int2vector or oidvector.
var vectorColumns = map[string]bool{
	"indkey": true, "indoption": true, "indclass": true, "indcollation": true,
	"proargtypes": true, "tgattr": true, "partattrs": true, "partclass": true,
	"partcollation": true, "stxkeys": true, "prattrs": true,
}

// vectorElems map int2vector and oidvector to the element types of the
// DuckDB lists that hold them, aliases storage registers: an int2vector is
// a pg_int2vector_elem[].
var vectorElems = map[string]string{"int2vector": "pg_int2vector_elem", "oidvector": "pg_oidvector_elem"}

// subscript shifts x[i] of a vector column to DuckDB's numbering:
// x[i + 1 - mallard_first_subscript(x)].
func (r *rewriter) subscript(n *pg.Node) {
	ind := n.GetAIndirection()
	if len(ind.Indirection) == 0 || !r.mayBeVector(ind.Arg) {
		return
	}
	idx := ind.Indirection[0].GetAIndices()
	if idx == nil || idx.IsSlice || idx.Uidx == nil {
		return
	}
	plusOne := pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("+"), idx.Uidx, pg.MakeAConstIntNode(1, -1), -1)
	idx.Uidx = pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("-"), plusOne, r.firstSubscript(ind.Arg), -1)
	r.changed = true
}

// generateSubscripts shifts generate_subscripts(x, dim) of a vector column
// to Postgres' numbering: generate_subscripts(x, dim) +
// (mallard_first_subscript(x) - 1).
func (r *rewriter) generateSubscripts(n *pg.Node) {
	fc := n.GetFuncCall()
	if fc == nil || lastName(fc.Funcname) != "generate_subscripts" || len(fc.Args) != 2 ||
		r.fromCalls[fc] || !r.mayBeVector(fc.Args[0]) {
		return
	}
	shift := pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("-"), r.firstSubscript(fc.Args[0]), pg.MakeAConstIntNode(1, -1), -1)
	n.Node = pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("+"), &pg.Node{Node: n.Node}, shift, -1).Node
	r.changed = true
}

// firstSubscript is mallard_first_subscript(x) of a copy of x.
func (r *rewriter) firstSubscript(x *pg.Node) *pg.Node {
	return pg.MakeFuncCallNode(r.p.catalogFunc("mallard_first_subscript"), []*pg.Node{proto.Clone(x).(*pg.Node)}, -1)
}

// fromFunctions rewrites generate_subscripts in a FROM item (see
// fromSubscripts) and records the calls a FROM item makes, which
// generateSubscripts leaves alone.
func (r *rewriter) fromFunctions(rf *pg.RangeFunction) {
	for _, f := range rf.Functions {
		for _, item := range f.GetList().GetItems() {
			r.fromSubscripts(rf, item)
			if fc := item.GetFuncCall(); fc != nil {
				if r.fromCalls == nil {
					r.fromCalls = map[*pg.FuncCall]bool{}
				}
				r.fromCalls[fc] = true
			}
		}
	}
}

// fromSubscripts turns generate_subscripts(x, 1), a FROM item, into
// unnest(generate_series(f, f + array_length(x, 1) - 1)::int4[]) with f
// mallard_first_subscript(x): the subscripts of x as Postgres numbers
// them, typed integer as Postgres types them, none for an empty or NULL
// x. An item without an alias is named generate_subscripts, as in
// Postgres. Only dimension 1 is rewritten: DuckDB's lists have no other.
func (r *rewriter) fromSubscripts(rf *pg.RangeFunction, item *pg.Node) {
	fc := item.GetFuncCall()
	if fc == nil || lastName(fc.Funcname) != "generate_subscripts" || len(fc.Funcname) > 2 || len(fc.Args) != 2 ||
		fc.Args[1].GetAConst().GetIval() == nil || fc.Args[1].GetAConst().GetIval().Ival != 1 {
		return
	}
	x := fc.Args[0]
	last := pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("-"),
		pg.MakeAExprNode(pg.A_Expr_Kind_AEXPR_OP, names("+"), r.firstSubscript(x),
			call([]string{"array_length"}, proto.Clone(x).(*pg.Node), pg.MakeAConstIntNode(1, -1)), -1),
		pg.MakeAConstIntNode(1, -1), -1)
	ints := castTo(call([]string{"generate_series"}, r.firstSubscript(x), last), "int4")
	ints.GetTypeCast().TypeName.ArrayBounds = []*pg.Node{pg.MakeAConstIntNode(-1, -1)}
	item.Node = call([]string{"unnest"}, ints).Node
	if rf.Alias == nil {
		rf.Alias = &pg.Alias{Aliasname: "generate_subscripts"}
	}
	r.changed = true
}

// mayBeVector reports whether x may be an int2vector or oidvector: a cast
// to one, or a column named as a catalog vector column or an alias of one.
func (r *rewriter) mayBeVector(x *pg.Node) bool {
	if tc := x.GetTypeCast(); tc != nil {
		name := lastName(tc.TypeName.GetNames())
		return name == vectorElems["int2vector"] || name == vectorElems["oidvector"]
	}
	name := lastName(x.GetColumnRef().GetFields())
	if name == "" {
		return false
	}
	if r.vectors == nil {
		r.vectors = vectorAliases(r.root)
	}
	return r.vectors[name]
}

// vectorAliases returns vectorColumns and every select-list alias in the
// statement of a column among them, followed through aliases of aliases.
func vectorAliases(root *pg.Node) map[string]bool {
	var renames [][2]string // alias, column
	collectRenames(root.ProtoReflect(), &renames)
	out := maps.Clone(vectorColumns)
	for grew := true; grew; {
		grew = false
		for _, rn := range renames {
			if out[rn[1]] && !out[rn[0]] {
				out[rn[0]], grew = true, true
			}
		}
	}
	return out
}

// collectRenames appends, for every select-list item below m that is a
// column given an alias, the alias and the column's name.
func collectRenames(m protoreflect.Message, renames *[][2]string) {
	if rt, ok := m.Interface().(*pg.ResTarget); ok && rt.Name != "" {
		if col := lastName(rt.Val.GetColumnRef().GetFields()); col != "" {
			*renames = append(*renames, [2]string{strings.ToLower(rt.Name), col})
		}
	}
	children(m, func(c protoreflect.Message) { collectRenames(c, renames) })
}
