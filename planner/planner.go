// Package planner plans client SQL with the real Postgres parser
// (pg_query_go, cgo): it refines the statements package plan splits and
// classifies, answers SET/SHOW/cursor/catalog idioms and rewrites what
// DuckDB does not accept. sqlfront sees it only through its own Planner
// interface, which a *Planner satisfies.
package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/mallard/mallard/planner/plan"
)

// Planner turns client SQL into statements DuckDB runs: it splits, parses
// with the real Postgres parser, classifies and rewrites the Postgres idioms
// DuckDB rejects. A statement the Postgres parser rejects is passed to
// DuckDB unchanged, so DuckDB-only syntax (PIVOT, FROM-first, lists) works.
// A Planner is immutable and safe for concurrent use.
type Planner struct {
	cat        plan.Catalog
	views      map[string]bool
	infoViews  map[string]bool
	macros     map[string]bool
	infoFns    map[string]bool
	functions  map[string][]string
	positional map[string][]string
	ops        map[string]bool
	scalars    map[string]bool
	// pgVersion is the parse tree version Deparse wants of trees the
	// planner builds itself.
	pgVersion int32
}

// New returns a planner that redirects catalog references to cat.
func New(cat plan.Catalog) *Planner {
	return &Planner{cat: cat, views: set(cat.Views), infoViews: set(cat.InfoViews), macros: set(cat.Macros), infoFns: set(cat.InfoMacros),
		functions: cat.Functions, positional: cat.Positional, ops: set(cat.Operations), scalars: set(cat.Scalars), pgVersion: parseTreeVersion()}
}

func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
}

// Plan splits a query string into planned statements.
func (p *Planner) Plan(query string) []plan.Statement {
	stmts := plan.Split(query)
	for i := range stmts {
		p.plan(&stmts[i], nil)
	}
	return stmts
}

// PlanOne plans the text of one statement.
func (p *Planner) PlanOne(text string) plan.Statement {
	st := plan.Classify(text)
	p.plan(&st, nil)
	return st
}

// PlanParse plans a statement of an extended-protocol Parse whose client
// declared parameter types: paramTypes[i] is the DuckDB type $i+1 is cast
// to ("" for none), so that a bare parameter is typed as declared.
func (p *Planner) PlanParse(text string, paramTypes []string) plan.Statement {
	st := plan.Classify(text)
	p.plan(&st, paramTypes)
	return st
}

// plan refines a lexer-classified statement with the Postgres parse tree,
// then passes the caller to Mallard's table functions.
func (p *Planner) plan(st *plan.Statement, paramTypes []string) {
	if n := dumpNotice(st.Text); n != "" {
		st.Notices = append(st.Notices, n)
	}
	p.rewrite(st, paramTypes)
	if st.Kind != plan.KindEmpty && st.Setting == nil && st.Cursor == nil && st.Deallocate == "" {
		st.Text, st.Calls = rewriteCalls(st.Text, signatures{p.functions, p.positional}, p.ops, p.scalars)
	}
}

func (p *Planner) rewrite(st *plan.Statement, paramTypes []string) {
	if st.Kind == plan.KindEmpty {
		return
	}
	tree, err := pg.Parse(st.Text)
	if err != nil || len(tree.Stmts) != 1 {
		// not Postgres SQL: DuckDB's own dialect, or an error DuckDB reports
		if err != nil && st.Kind == plan.KindQuery {
			p.nameListColumns(st)
		}
		st.ParamCasts = scanParamCasts(st.Text)
		return
	}
	node := tree.Stmts[0].Stmt
	if ps := node.GetPrepareStmt(); ps != nil {
		st.Prepare = strings.ToLower(ps.Name)
	}
	if feature := unsupported(node); feature != "" {
		st.Unsupported = feature
		return
	}
	ddl, feature := p.planDDL(node, st.Text)
	if feature != "" {
		st.Unsupported = feature
		return
	}
	if ddl != nil && (!ddl.keep || len(ddl.notices) > 0 || len(ddl.warnings) > 0 || len(ddl.steps) > 0) {
		p.finishDDL(st, node, ddl)
		return
	}
	switch {
	case node.GetVariableSetStmt() != nil:
		st.Setting = settingOf(node.GetVariableSetStmt())
		return
	case node.GetVariableShowStmt() != nil:
		st.Kind, st.Tag = plan.KindShow, "SHOW"
		st.Setting = &plan.Setting{Name: strings.ToLower(node.GetVariableShowStmt().Name), Show: true}
		return
	case node.GetTransactionStmt() != nil:
		return
	case node.GetDeallocateStmt() != nil:
		st.Deallocate = deallocation(node)
		return
	}
	if op, feature := p.cursorOp(node, tree.Version); op != nil || feature != "" {
		st.Cursor, st.Unsupported = op, feature
		return
	}
	if calls := setConfigCalls(node); calls != nil {
		st.Kind, st.Tag, st.SetConfig, st.Setting = plan.KindSetConfig, "SELECT", calls, &calls[0]
		return
	}
	r := rewriter{p: p, paramTypes: paramTypes, castParams: map[*pg.ParamRef]bool{}}
	r.nameColumns(node)
	st.Before = r.serialColumns(node)
	r.statement(node)
	st.ArrayParams, st.ParamCasts = r.arrayParams, r.paramCasts
	r.changed = r.changed || ddl != nil || unicodeEscapes(st.Text)
	if !r.changed {
		if len(r.aliases) > 0 {
			if text, ok := spliceAliases(st.Text, r.aliases); ok {
				st.Text = text
			}
		}
		return
	}
	out, err := pg.Deparse(tree)
	if err != nil {
		return
	}
	st.Text, st.Rewritten = out, true
}

// Fingerprint groups text with every statement that differs from it only
// in constants, whitespace and comments, as pg_stat_statements' queryid
// does, and returns text with its constants replaced by $1, $2...; text
// the Postgres parser cannot read (DuckDB's own dialect) is its own group,
// kept as written.
func (p *Planner) Fingerprint(text string) (id int64, normalized string) {
	u, err := pg.FingerprintToUInt64(text)
	if err != nil {
		return int64(pg.HashXXH3_64([]byte(text), 0)), text
	}
	normalized, err = pg.Normalize(text)
	if err != nil {
		normalized = text
	}
	return int64(u), normalized
}
