package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/mallard/mallard/planner/plan"
)

// seqOptions keeps the options of CREATE or ALTER SEQUENCE that DuckDB
// has: START, INCREMENT, MINVALUE, MAXVALUE, CYCLE. CACHE only tunes
// Postgres' preallocation; AS int4 or int2 becomes the type's MAXVALUE, as
// in Postgres; OWNED BY is not kept, which a notice says.
func seqOptions(opts []*pg.Node, d *ddlPlan) []*pg.Node {
	var out []*pg.Node
	asType, hasMax := "", false
	for _, o := range opts {
		de := o.GetDefElem()
		if de == nil {
			continue
		}
		switch de.Defname {
		case "cache", "sequence_name":
		case "as":
			asType = lastName(de.Arg.GetTypeName().GetNames())
		case "owned_by":
			if !isOwnedByNone(de) {
				d.notice("OWNED BY is not kept: the sequence stays when its column or table is dropped")
			}
		case "maxvalue", "minvalue":
			if de.Arg != nil { // NO MAXVALUE is the default
				hasMax = hasMax || de.Defname == "maxvalue"
				out = append(out, o)
			}
		default:
			out = append(out, o)
		}
	}
	if max := typeMax[asType]; max != 0 && !hasMax && !descending(out) {
		out = append(out, pg.MakeSimpleDefElemNode("maxvalue", pg.MakeIntNode(max), -1))
	}
	return out
}

var typeMax = map[string]int64{"int2": 32767, "smallint": 32767, "int4": 2147483647, "integer": 2147483647, "int": 2147483647}

func descending(opts []*pg.Node) bool {
	for _, o := range opts {
		if de := o.GetDefElem(); de.Defname == "increment" {
			if v, ok := defInt(de.Arg); ok && v < 0 {
				return true
			}
		}
	}
	return false
}

func defInt(n *pg.Node) (int64, bool) {
	switch {
	case n.GetInteger() != nil:
		return int64(n.GetInteger().Ival), true
	case n.GetFloat() != nil:
		return parseInt64(n.GetFloat().Fval)
	}
	return 0, false
}

func isOwnedByNone(de *pg.DefElem) bool {
	items := de.Arg.GetList().GetItems()
	return len(items) == 1 && strings.EqualFold(items[0].GetString_().GetSval(), "none")
}

// createSequence tidies CREATE SEQUENCE's options for DuckDB.
func (p *Planner) createSequence(node *pg.Node) *ddlPlan {
	cs := node.GetCreateSeqStmt()
	d := &ddlPlan{keep: true}
	cs.Options = seqOptions(cs.Options, d)
	return d
}

// alterSequence carries out the ALTER SEQUENCE forms a dump writes: OWNED
// BY (not kept) and RESTART WITH (as setval). DuckDB cannot change a
// sequence's other options.
func alterSequence(as *pg.AlterSeqStmt) (*ddlPlan, string) {
	d := &ddlPlan{}
	for _, o := range as.Options {
		de := o.GetDefElem()
		switch de.GetDefname() {
		case "owned_by":
			seqOptions([]*pg.Node{o}, d)
		case "cache", "as":
		case "restart":
			v, ok := defInt(de.Arg)
			if !ok {
				return nil, "ALTER SEQUENCE ... RESTART without WITH (give the value)"
			}
			d.steps = append(d.steps, plan.DDLStep{Setval: &plan.Setval{Schema: as.Sequence.Schemaname, Sequence: as.Sequence.Relname, Value: v}})
		default:
			return nil, "ALTER SEQUENCE ... " + strings.ToUpper(de.GetDefname()) + " (DuckDB cannot change a sequence; drop and create it)"
		}
	}
	return d, ""
}

// dropMany splits DROP of several objects, which DuckDB refuses, into one
// DROP per object.
func (p *Planner) dropMany(ds *pg.DropStmt) *ddlPlan {
	concurrent := ds.Concurrent
	ds.Concurrent = false
	if len(ds.Objects) < 2 {
		if concurrent {
			return &ddlPlan{keep: true}
		}
		return nil
	}
	d := &ddlPlan{}
	for _, obj := range ds.Objects {
		one := &pg.DropStmt{Objects: []*pg.Node{obj}, RemoveType: ds.RemoveType, Behavior: ds.Behavior, MissingOk: ds.MissingOk}
		d.steps = append(d.steps, p.rewriteStep(&pg.Node{Node: &pg.Node_DropStmt{DropStmt: one}})...)
	}
	return d
}

// truncateMany splits TRUNCATE of several tables into one per table.
// RESTART IDENTITY is not kept.
func (p *Planner) truncateMany(ts *pg.TruncateStmt) *ddlPlan {
	d := &ddlPlan{}
	if ts.RestartSeqs {
		d.notice("RESTART IDENTITY is not kept: the tables' sequences go on from where they are")
	}
	if len(ts.Relations) < 2 && !ts.RestartSeqs && ts.Behavior != pg.DropBehavior_DROP_CASCADE {
		return nil
	}
	for _, rel := range ts.Relations {
		rel.GetRangeVar().Inh = true
		one := &pg.TruncateStmt{Relations: []*pg.Node{rel}, Behavior: pg.DropBehavior_DROP_RESTRICT}
		d.steps = append(d.steps, p.rewriteStep(&pg.Node{Node: &pg.Node_TruncateStmt{TruncateStmt: one}})...)
	}
	return d
}

// createIndex makes an index DuckDB builds: its own ART index for btree
// and, with a notice, for the access methods it lacks (hash, gin, gist,
// brin, spgist); storage parameters, tablespaces and CONCURRENTLY go.
func (p *Planner) createIndex(is *pg.IndexStmt) (*ddlPlan, string) {
	d := &ddlPlan{keep: true}
	is.Concurrent = false
	is.Relation.Inh = true
	if len(is.Options) > 0 {
		d.notice("storage parameters are not kept: " + defNames(is.Options))
		is.Options = nil
	}
	if is.TableSpace != "" {
		d.notice("tablespaces are not kept: the index is stored with its table")
		is.TableSpace = ""
	}
	for _, e := range is.IndexParams {
		if ie := e.GetIndexElem(); ie != nil && len(ie.Opclass) > 0 {
			d.notice("operator class " + lastName(ie.Opclass) + " is not kept: DuckDB's index compares values by their type")
			ie.Opclass, ie.Opclassopts = nil, nil
		}
	}
	method := strings.ToLower(is.AccessMethod)
	is.AccessMethod = ""
	if method == "" || method == "btree" {
		return d, ""
	}
	if is.Unique || is.WhereClause != nil {
		return nil, method + " indexes"
	}
	step := &plan.IndexStep{Name: is.Idxname, Method: method, Schema: is.Relation.Schemaname, Table: is.Relation.Relname}
	for _, e := range is.IndexParams {
		if name := e.GetIndexElem().GetName(); name != "" {
			step.Columns = append(step.Columns, name)
		}
	}
	d.keep = false
	for _, s := range p.rewriteStep(&pg.Node{Node: &pg.Node_IndexStmt{IndexStmt: is}}) {
		step.SQL = s.SQL
	}
	d.steps = append(d.steps, plan.DDLStep{Index: step})
	return d, ""
}

// defNames lists the names of storage parameters, as in fillfactor, autovacuum_enabled.
func defNames(opts []*pg.Node) string {
	names := make([]string, 0, len(opts))
	for _, o := range opts {
		names = append(names, o.GetDefElem().GetDefname())
	}
	return strings.Join(names, ", ")
}

// createTable tidies CREATE TABLE for DuckDB: storage parameters,
// tablespaces, access methods and UNLOGGED go with a notice; identity
// columns become what serial columns are (a sequence and a default).
func (p *Planner) createTable(cs *pg.CreateStmt) (*ddlPlan, string) {
	switch {
	case len(cs.InhRelations) > 0:
		return nil, "table inheritance (INHERITS)"
	case cs.Partspec != nil || cs.Partbound != nil:
		return nil, "partitioned tables"
	case cs.OfTypename != nil:
		return nil, "typed tables (CREATE TABLE ... OF)"
	}
	d := &ddlPlan{keep: true}
	if len(cs.Options) > 0 {
		d.notice("storage parameters are not kept: " + defNames(cs.Options))
		cs.Options = nil
	}
	if cs.Tablespacename != "" {
		d.notice("tablespaces are not kept: the table is stored in the database file")
		cs.Tablespacename = ""
	}
	cs.AccessMethod = ""
	if cs.Relation.Relpersistence == "u" {
		d.notice("UNLOGGED is not kept: the table is written to the database file like any other")
		cs.Relation.Relpersistence = "p"
	}
	for _, elt := range cs.TableElts {
		if feature := tidyConstraints(elt, d); feature != "" {
			return nil, feature
		}
		col := elt.GetColumnDef()
		if col == nil {
			continue
		}
		for i, c := range col.Constraints {
			if con := c.GetConstraint(); con != nil && con.Contype == pg.ConstrType_CONSTR_IDENTITY {
				seq := p.identitySequence(cs.Relation, col.Colname, con, d)
				d.steps = append(d.steps, seq)
				col.Constraints = append(col.Constraints[:i:i], col.Constraints[i+1:]...)
				col.Constraints = append(col.Constraints, pg.MakeNotNullConstraintNode(-1),
					pg.MakeDefaultConstraintNode(call([]string{"nextval"}, pg.MakeAConstStrNode(seqName(cs.Relation, col.Colname, con), -1)), -1))
				break
			}
		}
	}
	for _, c := range cs.Constraints {
		if feature := tidyConstraints(c, d); feature != "" {
			return nil, feature
		}
	}
	return d, ""
}

// tidyConstraints refuses exclusion constraints and drops the index
// storage options of keys, in a table element or a column's constraints.
func tidyConstraints(elt *pg.Node, d *ddlPlan) string {
	cons := []*pg.Node{elt}
	if col := elt.GetColumnDef(); col != nil {
		cons = col.Constraints
	}
	for _, c := range cons {
		con := c.GetConstraint()
		if con == nil {
			continue
		}
		if con.Contype == pg.ConstrType_CONSTR_EXCLUSION {
			return "exclusion constraints"
		}
		con.Options, con.Indexspace = nil, ""
		con.SkipValidation = false
		fkActions(con, d)
	}
	return ""
}

// fkActions drops the ON DELETE and ON UPDATE actions of a foreign key
// that DuckDB lacks (CASCADE, SET NULL, SET DEFAULT), with a warning: the
// key then refuses what Postgres would have cascaded.
func fkActions(con *pg.Constraint, d *ddlPlan) {
	if con.Contype != pg.ConstrType_CONSTR_FOREIGN {
		return
	}
	for _, a := range []struct {
		event  string
		action *string
	}{{"DELETE", &con.FkDelAction}, {"UPDATE", &con.FkUpdAction}} {
		if name := fkActionNames[*a.action]; name != "" {
			d.warn("ON " + a.event + " " + name + " of foreign key " + quoteIdent(con.Conname) +
				" is not kept: DuckDB's foreign keys refuse to " + strings.ToLower(a.event) + " a referenced row instead")
			*a.action = "a"
		}
	}
}

var fkActionNames = map[string]string{"c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}

// seqName is the name of an identity column's sequence: the one its
// options give (SEQUENCE NAME), else table_column_seq beside the table.
func seqName(rel *pg.RangeVar, column string, con *pg.Constraint) string {
	for _, o := range con.GetOptions() {
		if de := o.GetDefElem(); de.GetDefname() == "sequence_name" {
			var parts []string
			for _, n := range de.Arg.GetList().GetItems() {
				parts = append(parts, n.GetString_().GetSval())
			}
			return strings.Join(parts, ".")
		}
	}
	name := rel.Relname + "_" + column + "_seq"
	if rel.Schemaname != "" {
		name = rel.Schemaname + "." + name
	}
	return name
}

// identitySequence is the CREATE SEQUENCE of an identity column.
func (p *Planner) identitySequence(rel *pg.RangeVar, column string, con *pg.Constraint, d *ddlPlan) plan.DDLStep {
	if con.GetGeneratedWhen() == "a" {
		d.notice("GENERATED ALWAYS is kept as GENERATED BY DEFAULT: an INSERT may give " + column + " a value")
	}
	schema, name := splitQualified(seqName(rel, column, con))
	seq := &pg.CreateSeqStmt{Sequence: &pg.RangeVar{Schemaname: schema, Relname: name, Inh: true, Relpersistence: "p"},
		Options: seqOptions(con.GetOptions(), d), IfNotExists: true}
	text, _ := p.deparseNode(&pg.Node{Node: &pg.Node_CreateSeqStmt{CreateSeqStmt: seq}})
	return plan.DDLStep{SQL: text}
}
