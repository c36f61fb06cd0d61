package planner

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// DDL is a Postgres statement that the server carries out as several DuckDB
// steps, or as none: the DDL that pg_dump, pgbench and schema tools write in
// forms DuckDB does not accept. Notices tell the client, before the steps
// run, what Mallard did not keep (an owner, a storage parameter, a
// privilege); a statement whose whole meaning is lost has no steps.
type DDL struct {
	Notices []string
	// Warnings say where Mallard keeps less than Postgres would in a way
	// that changes what later statements do (a foreign key's ON DELETE
	// CASCADE); they are sent as WARNINGs, which a dump's
	// client_min_messages = warning still shows.
	Warnings []string
	Steps    []DDLStep
	// Columns are the result columns (text) of a statement that returns
	// one row, such as setval; nil for none.
	Columns []string
}

// DDLStep is one step of a DDL: exactly one field is set.
type DDLStep struct {
	// SQL is a statement for DuckDB.
	SQL string
	// Setval moves a sequence, which DuckDB cannot set.
	Setval *Setval
	// Index creates an index of an access method DuckDB lacks as DuckDB's
	// own, unless a key column has a type DuckDB cannot index.
	Index *IndexStep
	// Constraint adds a constraint that DuckDB's ALTER TABLE cannot add.
	Constraint *ConstraintStep
	// Insert is an INSERT whose array constants depend on its columns' types.
	Insert *InsertStep
	// View is a CREATE VIEW whose relation names the server qualifies.
	View *ViewStep
}

// Setval is setval(Sequence, Value, IsCalled): after it, nextval returns
// Value plus the increment if IsCalled, else Value.
type Setval struct {
	Schema, Sequence string // Schema "" for the search path
	Value            int64
	IsCalled         bool
}

// IndexStep is CREATE INDEX SQL on Schema.Table, whose key columns are
// Columns (expressions are not checked).
type IndexStep struct {
	SQL, Name, Method, Schema, Table string
	Columns                          []string
}

// ConstraintStep is ALTER TABLE Schema.Table ADD Clause, where Clause is a
// PRIMARY KEY, UNIQUE, CHECK or FOREIGN KEY constraint (Kind) as CREATE
// TABLE writes it. DuckDB's ALTER TABLE adds none of them to a table with
// indexes, and no foreign key may reference the unique index it could
// make instead, so the server rebuilds the table.
type ConstraintStep struct {
	Schema, Table, Name, Clause, Kind string
	// Column is the column of a NOT NULL constraint (Kind "NOT NULL",
	// Clause ""), which the server adds to the column's definition.
	Column string
	// SelfClause, set for a foreign key that names its own table without a
	// schema, is Clause with that table qualified by SelfSchema, which the
	// server replaces with the schema it finds the table in: DuckDB takes
	// an unqualified name in the key of a CREATE TABLE for another table.
	// It is text, not a function, so that a plan stays plain data.
	SelfClause string
}

// SelfSchema stands for the schema of a self-referencing foreign key's
// table in ConstraintStep.SelfClause.
const SelfSchema = "mallard_self_schema"

// ddlPlan collects what planDDL decided for one statement.
type ddlPlan struct {
	notices  []string
	warnings []string
	steps    []DDLStep
	// keep says the statement itself, tidied and rewritten, runs after
	// steps.
	keep bool
}

func (d *ddlPlan) notice(msg string) { d.notices = append(d.notices, msg) }

func (d *ddlPlan) warn(msg string) { d.warnings = append(d.warnings, msg) }

// planDDL plans the statements DuckDB cannot run as Postgres writes them,
// changing node in place for those it only needs to tidy. It returns nil
// when node runs as it is (after the usual rewriting), and a feature name
// for what no rewrite can honour.
func (p *Planner) planDDL(node *pg.Node, text string) (*ddlPlan, string) {
	if containsFold(text, "regclass") {
		stripRegclassSequenceArgs(node)
	}
	switch {
	case node.GetAlterOwnerStmt() != nil:
		return noop("owners are not kept: Mallard has no roles, every user sees every object"), ""
	case node.GetGrantStmt() != nil:
		return noop("privileges are not kept: Mallard has no roles, GRANT and REVOKE change nothing"), ""
	case node.GetLockStmt() != nil:
		return noop("LOCK TABLE takes no lock: a transaction reads the tables as they were when it began, and a write that conflicts with another transaction's fails"), ""
	case node.GetCommentStmt() != nil:
		return commentDDL(node.GetCommentStmt()), ""
	case node.GetCreateSeqStmt() != nil:
		return p.createSequence(node), ""
	case node.GetAlterSeqStmt() != nil:
		return alterSequence(node.GetAlterSeqStmt())
	case node.GetDropStmt() != nil:
		return p.dropMany(node.GetDropStmt()), ""
	case node.GetTruncateStmt() != nil:
		return p.truncateMany(node.GetTruncateStmt()), ""
	case node.GetIndexStmt() != nil:
		return p.createIndex(node.GetIndexStmt())
	case node.GetCreateStmt() != nil:
		return p.createTable(node.GetCreateStmt())
	case node.GetAlterTableStmt() != nil:
		return p.alterTable(node.GetAlterTableStmt())
	case node.GetViewStmt() != nil:
		if step := p.createView(node); step != nil {
			return &ddlPlan{steps: []DDLStep{{View: step}}}, ""
		}
	case node.GetInsertStmt() != nil:
		var plan *ddlPlan
		if ins := node.GetInsertStmt(); ins.Override == pg.OverridingKind_OVERRIDING_SYSTEM_VALUE || ins.Override == pg.OverridingKind_OVERRIDING_USER_VALUE {
			ins.Override = pg.OverridingKind_OVERRIDING_NOT_SET
			plan = &ddlPlan{keep: true}
		}
		if strings.Contains(text, "'{") || strings.Contains(text, "' {") {
			if step := p.arrayInsert(node); step != nil {
				return &ddlPlan{steps: []DDLStep{{Insert: step}}}, ""
			}
		}
		if plan != nil {
			return plan, ""
		}
	case node.GetSelectStmt() != nil:
		if sv := setvalCall(node.GetSelectStmt()); sv != nil {
			return &ddlPlan{steps: []DDLStep{{Setval: sv}}}, ""
		}
		if sequenceRead(node.GetSelectStmt()) ||
			containsFold(text, "pg_partition_ancestors") && partitionAncestorsInSelect(node) {
			return &ddlPlan{keep: true}, ""
		}
	}
	return nil, ""
}

// containsFold reports whether s contains the lower-case ASCII word sub
// in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func noop(notice string) *ddlPlan { return &ddlPlan{notices: []string{notice}} }

// commentDDL drops COMMENT ON of objects DuckDB cannot comment on.
func commentDDL(c *pg.CommentStmt) *ddlPlan {
	switch c.Objtype {
	case pg.ObjectType_OBJECT_TABLE, pg.ObjectType_OBJECT_VIEW, pg.ObjectType_OBJECT_COLUMN,
		pg.ObjectType_OBJECT_INDEX, pg.ObjectType_OBJECT_SEQUENCE, pg.ObjectType_OBJECT_TYPE:
		return nil
	}
	return noop("the comment is not kept: DuckDB keeps comments on tables, views, columns, indexes, sequences and types only")
}

// stripRegclassSequenceArgs turns nextval('s'::regclass) (and currval,
// setval) into nextval('s'): DuckDB names sequences by text, and a regclass
// cast would become a catalog lookup, which a DEFAULT may not contain.
func stripRegclassSequenceArgs(node *pg.Node) {
	walkNodes(node, func(n *pg.Node) {
		fc := n.GetFuncCall()
		if fc == nil || len(fc.Args) == 0 {
			return
		}
		switch lastName(fc.Funcname) {
		case "nextval", "currval", "setval":
		default:
			return
		}
		if tc := fc.Args[0].GetTypeCast(); tc != nil && lastName(tc.TypeName.GetNames()) == "regclass" && tc.Arg.GetAConst() != nil {
			fc.Args[0] = tc.Arg
		}
		if len(fc.Funcname) == 2 && strings.EqualFold(fc.Funcname[0].GetString_().GetSval(), "pg_catalog") {
			fc.Funcname = fc.Funcname[1:]
		}
	})
}

// setvalCall reads SELECT [pg_catalog.]setval('seq', n [, is_called]),
// the form pg_dump writes, with constant arguments; nil for anything else.
func setvalCall(sel *pg.SelectStmt) *Setval {
	if len(sel.TargetList) != 1 || !onlySelectList(sel) {
		return nil
	}
	fc := sel.TargetList[0].GetResTarget().GetVal().GetFuncCall()
	if fc == nil || lastName(fc.Funcname) != "setval" || len(fc.Args) < 2 || len(fc.Args) > 3 {
		return nil
	}
	name := uncast(fc.Args[0]).GetAConst().GetSval()
	value, ok := intConst(uncast(fc.Args[1]))
	if name == nil || !ok {
		return nil
	}
	sv := &Setval{Value: value, IsCalled: true}
	if len(fc.Args) == 3 {
		b := uncast(fc.Args[2]).GetAConst()
		if b == nil || b.GetBoolval() == nil && b.GetSval() == nil {
			return nil
		}
		sv.IsCalled = isTrue(constText(fc.Args[2]))
	}
	sv.Schema, sv.Sequence = splitQualified(name.Sval)
	return sv
}

func uncast(n *pg.Node) *pg.Node {
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().Arg
	}
	return n
}

// intConst reads an integer constant, which the parser makes a float
// beyond 32 bits.
func intConst(n *pg.Node) (int64, bool) {
	c := n.GetAConst()
	switch {
	case c == nil:
		return 0, false
	case c.GetIval() != nil:
		return int64(c.GetIval().Ival), true
	case c.GetFval() != nil:
		return parseInt64(c.GetFval().Fval)
	}
	return 0, false
}

// splitQualified splits a sequence name as regclass reads it: schema.name,
// each part lower-cased unless double-quoted.
func splitQualified(s string) (schema, name string) {
	var parts []string
	for len(s) > 0 {
		var part string
		if s[0] == '"' {
			end := 1
			for end < len(s) && !(s[end] == '"' && (end+1 == len(s) || s[end+1] != '"')) {
				if s[end] == '"' {
					end++
				}
				end++
			}
			part = strings.ReplaceAll(s[1:min(end, len(s))], `""`, `"`)
			s = s[min(end+1, len(s)):]
		} else {
			i := strings.IndexByte(s, '.')
			if i < 0 {
				i = len(s)
			}
			part, s = strings.ToLower(s[:i]), s[i:]
		}
		parts = append(parts, part)
		s = strings.TrimPrefix(s, ".")
	}
	switch len(parts) {
	case 0:
		return "", ""
	case 1:
		return "", parts[0]
	}
	return parts[len(parts)-2], parts[len(parts)-1]
}

// deparseNode renders one statement.
func (p *Planner) deparseNode(n *pg.Node) (string, bool) {
	out, err := pg.Deparse(&pg.ParseResult{Version: p.pgVersion, Stmts: []*pg.RawStmt{{Stmt: n}}})
	return out, err == nil
}

// parseTreeVersion is the version of the parse trees pg_query makes.
func parseTreeVersion() int32 {
	tree, err := pg.Parse("SELECT")
	if err != nil {
		return 0
	}
	return tree.Version
}

// rewriteStep rewrites a statement made by planDDL as the planner rewrites
// a client's statement, and renders it.
func (p *Planner) rewriteStep(n *pg.Node) []DDLStep {
	r := rewriter{p: p, castParams: map[*pg.ParamRef]bool{}}
	var steps []DDLStep
	for _, q := range r.serialColumns(n) {
		steps = append(steps, DDLStep{SQL: q})
	}
	r.statement(n)
	if text, ok := p.deparseNode(n); ok {
		steps = append(steps, DDLStep{SQL: text})
	}
	return steps
}

// walkNodes calls f on every Node below n, parents first.
func walkNodes(n *pg.Node, f func(*pg.Node)) {
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		if x, ok := m.Interface().(*pg.Node); ok {
			f(x)
		}
		children(m, walk)
	}
	walk(n.ProtoReflect())
}

func parseInt64(s string) (int64, bool) {
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}
