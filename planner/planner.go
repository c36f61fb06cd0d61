package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Catalog names the objects Mallard installs in place of Postgres' system
// catalog, which the planner redirects references to.
type Catalog struct {
	// Database and the schemas in it that hold the replacement objects.
	Database, PGSchema, InfoSchema string
	// Views are pg_catalog relations (pg_class, ...), InfoViews
	// information_schema relations, Macros pg_catalog functions and
	// InfoMacros information_schema functions (_pg_expandarray).
	Views, InfoViews, Macros, InfoMacros []string
	// Functions maps each of Mallard's table functions to the names of its
	// named arguments; calls of them are rewritten (see rewriteCalls).
	Functions map[string][]string
	// Operations are Mallard's scalar functions named schema.function
	// (mlops.cancel, ...); calls of them are rewritten too.
	Operations []string
	// Scalars are Mallard's scalar functions that take the calling
	// session before their own arguments (recommendations).
	Scalars []string
}

// Planner turns client SQL into statements DuckDB runs: it splits, parses
// with the real Postgres parser, classifies and rewrites the Postgres idioms
// DuckDB rejects. A statement the Postgres parser rejects is passed to
// DuckDB unchanged, so DuckDB-only syntax (PIVOT, FROM-first, lists) works.
// A Planner is immutable and safe for concurrent use.
type Planner struct {
	cat       Catalog
	views     map[string]bool
	infoViews map[string]bool
	macros    map[string]bool
	infoFns   map[string]bool
	functions map[string][]string
	ops       map[string]bool
	scalars   map[string]bool
	// pgVersion is the parse tree version Deparse wants of trees the
	// planner builds itself.
	pgVersion int32
}

// New returns a planner that redirects catalog references to cat.
func New(cat Catalog) *Planner {
	return &Planner{cat: cat, views: set(cat.Views), infoViews: set(cat.InfoViews), macros: set(cat.Macros), infoFns: set(cat.InfoMacros),
		functions: cat.Functions, ops: set(cat.Operations), scalars: set(cat.Scalars), pgVersion: parseTreeVersion()}
}

func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
}

// Plan splits a query string into planned statements.
func (p *Planner) Plan(query string) []Statement {
	stmts := Split(query)
	for i := range stmts {
		p.plan(&stmts[i], nil)
	}
	return stmts
}

// PlanOne plans the text of one statement.
func (p *Planner) PlanOne(text string) Statement {
	st := Classify(text)
	p.plan(&st, nil)
	return st
}

// PlanParse plans a statement of an extended-protocol Parse whose client
// declared parameter types: paramTypes[i] is the DuckDB type $i+1 is cast
// to ("" for none), so that a bare parameter is typed as declared.
func (p *Planner) PlanParse(text string, paramTypes []string) Statement {
	st := Classify(text)
	p.plan(&st, paramTypes)
	return st
}

// plan refines a lexer-classified statement with the Postgres parse tree,
// then passes the caller to Mallard's table functions.
func (p *Planner) plan(st *Statement, paramTypes []string) {
	if n := dumpNotice(st.Text); n != "" {
		st.Notices = append(st.Notices, n)
	}
	p.rewrite(st, paramTypes)
	if st.Kind != KindEmpty && st.Setting == nil && st.Cursor == nil && st.Deallocate == "" {
		st.Text, st.Calls = rewriteCalls(st.Text, p.functions, p.ops, p.scalars)
	}
}

func (p *Planner) rewrite(st *Statement, paramTypes []string) {
	if st.Kind == KindEmpty {
		return
	}
	tree, err := pg.Parse(st.Text)
	if err != nil || len(tree.Stmts) != 1 {
		// not Postgres SQL: DuckDB's own dialect, or an error DuckDB reports
		if err != nil && st.Kind == KindQuery {
			p.nameListColumns(st)
		}
		return
	}
	node := tree.Stmts[0].Stmt
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
		st.Kind, st.Tag = KindShow, "SHOW"
		st.Setting = &Setting{Name: strings.ToLower(node.GetVariableShowStmt().Name), Show: true}
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
		st.Kind, st.Tag, st.SetConfig, st.Setting = KindSetConfig, "SELECT", calls, &calls[0]
		return
	}
	r := rewriter{p: p, paramTypes: paramTypes, castParams: map[*pg.ParamRef]bool{}}
	r.nameColumns(node)
	st.Before = r.serialColumns(node)
	r.statement(node)
	st.ArrayParams = r.arrayParams
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
