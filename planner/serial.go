package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// serialTypes are Postgres' serial pseudo-types and the integer types they
// stand for.
var serialTypes = map[string]string{
	"smallserial": "int2", "serial2": "int2", "serial": "int4", "serial4": "int4",
	"bigserial": "int8", "serial8": "int8",
}

// serialColumns turns serial columns of CREATE TABLE into what Postgres
// makes of them: an integer column whose default is the next value of a
// sequence named table_column_seq, which is created first.
func (r *rewriter) serialColumns(n *pg.Node) []string {
	cs := n.GetCreateStmt()
	if cs == nil {
		return nil
	}
	var before []string
	for _, elt := range cs.TableElts {
		col := elt.GetColumnDef()
		if col == nil || col.TypeName == nil {
			continue
		}
		base, ok := serialTypes[lastName(col.TypeName.Names)]
		if !ok {
			continue
		}
		seq := cs.Relation.Relname + "_" + col.Colname + "_seq"
		if cs.Relation.Schemaname != "" {
			seq = cs.Relation.Schemaname + "." + seq
		}
		before = append(before, "CREATE SEQUENCE IF NOT EXISTS "+seq)
		col.TypeName = &pg.TypeName{Names: typeNames(base), Typemod: -1, Location: -1}
		def := call([]string{"nextval"}, pg.MakeAConstStrNode(seq, -1))
		col.Constraints = append(col.Constraints, pg.MakeNotNullConstraintNode(-1), pg.MakeDefaultConstraintNode(def, -1))
		r.changed = true
	}
	return before
}

// deallocation reads DEALLOCATE [PREPARE] name | ALL: "*" for ALL.
func deallocation(n *pg.Node) string {
	d := n.GetDeallocateStmt()
	if d == nil {
		return ""
	}
	if d.Isall || d.Name == "" {
		return "*"
	}
	return strings.ToLower(d.Name)
}
