package planner

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mallard/mallard/planner/plan"
)

// ddlPlan collects what planDDL decided for one statement.
type ddlPlan struct {
	notices  []string
	warnings []string
	steps    []plan.DDLStep
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
			return &ddlPlan{steps: []plan.DDLStep{{View: step}}}, ""
		}
	case node.GetInsertStmt() != nil:
		var kept *ddlPlan
		if ins := node.GetInsertStmt(); ins.Override == pg.OverridingKind_OVERRIDING_SYSTEM_VALUE || ins.Override == pg.OverridingKind_OVERRIDING_USER_VALUE {
			ins.Override = pg.OverridingKind_OVERRIDING_NOT_SET
			kept = &ddlPlan{keep: true}
		}
		if strings.Contains(text, "'{") || strings.Contains(text, "' {") {
			if step := p.arrayInsert(node); step != nil {
				return &ddlPlan{steps: []plan.DDLStep{{Insert: step}}}, ""
			}
		}
		if kept != nil {
			return kept, ""
		}
	case node.GetSelectStmt() != nil:
		if sv := setvalCall(node.GetSelectStmt()); sv != nil {
			return &ddlPlan{steps: []plan.DDLStep{{Setval: sv}}}, ""
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
func setvalCall(sel *pg.SelectStmt) *plan.Setval {
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
	sv := &plan.Setval{Value: value, IsCalled: true}
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
func (p *Planner) rewriteStep(n *pg.Node) []plan.DDLStep {
	r := rewriter{p: p, castParams: map[*pg.ParamRef]bool{}}
	var steps []plan.DDLStep
	for _, q := range r.serialColumns(n) {
		steps = append(steps, plan.DDLStep{SQL: q})
	}
	r.statement(n)
	if text, ok := p.deparseNode(n); ok {
		steps = append(steps, plan.DDLStep{SQL: text})
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
