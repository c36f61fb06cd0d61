package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// typeSubstitutes are Postgres types DuckDB lacks, as the DuckDB type that
// holds their values. The reg* types are handled by regCast.
var typeSubstitutes = map[string]string{
	"oid": "int8", "xid": "int8", "xid8": "int8", "cid": "int8",
	"name": "varchar", "char": "varchar", "int2vector": "varchar", "oidvector": "varchar",
	"pg_node_tree": "varchar", "aclitem": "varchar", "regconfig": "int8",
	"jsonb": "json", "citext": "varchar",
}

// standardTypes are the pg_catalog types the deparser prints in SQL
// spelling (pg_catalog.int8 as bigint), so they keep their qualification.
var standardTypes = map[string]bool{
	"int2": true, "int4": true, "int8": true, "float4": true, "float8": true, "bool": true,
	"varchar": true, "bpchar": true, "numeric": true, "timestamp": true, "timestamptz": true,
	"time": true, "timetz": true, "interval": true, "bit": true, "varbit": true,
}

// typeNames spells a type so that the deparser prints what DuckDB reads.
func typeNames(name string) []*pg.Node {
	if standardTypes[name] {
		return names("pg_catalog", name)
	}
	return names(name)
}

// regTypes map a reg* type to Mallard's macros: from a name to an oid, and
// from an oid to a name.
var regTypes = map[string][2]string{
	"regclass":     {"mallard_regclass", "mallard_regclass_name"},
	"regtype":      {"mallard_regtype", "mallard_regtype_name"},
	"regproc":      {"", "mallard_regproc_name"},
	"regprocedure": {"", "mallard_regproc_name"},
	"regnamespace": {"mallard_regnamespace", "mallard_regnamespace_name"},
	"regrole":      {"", ""},
	"regoper":      {"", ""},
}

// typeName strips pg_catalog from type names and substitutes types DuckDB
// lacks, wherever a type is named (casts, column definitions).
func (r *rewriter) typeName(t *pg.TypeName) {
	name := lastName(t.Names)
	if sub, ok := typeSubstitutes[name]; ok {
		t.Names = typeNames(sub)
		r.changed = true
		return
	}
	if len(t.Names) == 2 && strings.EqualFold(t.Names[0].GetString_().GetSval(), "pg_catalog") && !standardTypes[name] {
		t.Names = names(name)
		r.changed = true
	}
}

// typeCast turns x::regclass (and the other reg* types) into a lookup: a
// name becomes an oid. Any other value keeps its oid, as a BIGINT.
func (r *rewriter) typeCast(n *pg.Node) {
	tc := n.GetTypeCast()
	fns, ok := regTypes[lastName(tc.TypeName.Names)]
	if !ok || len(tc.TypeName.ArrayBounds) > 0 {
		return
	}
	if c := tc.Arg.GetAConst(); c != nil && c.GetSval() != nil && fns[0] != "" {
		*n = *call([]string{r.p.cat.Database, r.p.cat.PGSchema, fns[0]}, tc.Arg)
	} else {
		tc.TypeName = &pg.TypeName{Names: typeNames("int8"), Typemod: -1, Location: -1}
	}
	r.changed = true
}

// resTarget shows a reg* cast of a column in a select list as the name it
// stands for, as Postgres' output function does.
func (r *rewriter) resTarget(rt *pg.ResTarget) {
	tc := rt.Val.GetTypeCast()
	if tc == nil || tc.Arg.GetAConst() != nil {
		return
	}
	fns, ok := regTypes[lastName(tc.TypeName.Names)]
	if !ok || fns[1] == "" || len(tc.TypeName.ArrayBounds) > 0 {
		return
	}
	if rt.Name == "" {
		rt.Name = figureName(tc.Arg, lastName(tc.TypeName.Names))
	}
	rt.Val = call([]string{r.p.cat.Database, r.p.cat.PGSchema, fns[1]}, tc.Arg)
	r.changed = true
}

// figureName is the column name Postgres gives an unnamed expression.
func figureName(n *pg.Node, fallback string) string {
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) > 0 {
		if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil {
			return s.Sval
		}
	}
	return fallback
}
