package sqlfront

import (
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// prepare plans one statement and, unless the front end runs it itself,
// prepares it in DuckDB. Prepare errors are reported here, as Postgres
// reports them at Parse.
func (s *session) prepare(st plan.Statement) (*prepared, error) {
	if s.tx == txFailed && !st.IsTransactionExit() && !isRollbackTo(st) {
		return nil, errInFailedTx
	}
	if st.Unsupported != "" {
		return nil, sqlstate.New(sqlstate.FeatureNotSupported, "%s is not supported by Mallard", st.Unsupported)
	}
	for _, n := range st.Notices {
		s.sendNotice("NOTICE", sqlstate.SuccessfulCompletion, n)
	}
	p := &prepared{plan: st}
	if st.Setting != nil {
		if p.synth = s.settingStatement(st); p.synth != nil {
			return p, nil
		}
	}
	if c := st.Cursor; c != nil {
		if c.Op == "declare" {
			inner, err := s.prepare(*c.Query)
			if err != nil {
				return nil, err
			}
			p.declared = inner
		}
		return p, nil
	}
	if st.Deallocate != "" {
		if p.synth = s.deallocate(st.Deallocate); p.synth != nil {
			return p, nil
		}
	}
	if st.Kind == plan.KindDDL && strings.HasPrefix(st.Tag, "DISCARD") {
		p.synth = discard(st.Tag)
		return p, nil
	}
	if err := s.mayRun(st); err != nil {
		return nil, err
	}
	if st.Prepare != "" && !s.sqlPrepared[st.Prepare] {
		if err := s.mayPrepare(st.Prepare); err != nil {
			return nil, err
		}
	}
	if st.DDL != nil {
		p.synth = s.ddlStatement(st)
		return p, nil
	}
	switch st.Kind {
	case plan.KindEmpty, plan.KindBegin, plan.KindCommit, plan.KindRollback, plan.KindSavepoint:
		return p, nil
	case plan.KindCopy:
		c, ok, err := plan.ParseCopy(st.Text)
		if err != nil {
			return nil, err
		}
		if ok {
			if s.readOnly && c.FromStdin {
				return nil, s.srv.db.ReadOnlyError("COPY FROM")
			}
			p.copy = &c
			return p, nil
		}
	}
	if s.open != nil {
		if err := s.open.hold(s.ctx, s.srv.db); err != nil {
			return nil, err
		}
		s.open = nil
	}
	ctx, done := s.statementContext()
	defer done()
	for _, q := range st.Before {
		if err := s.db.Exec(ctx, q); err != nil {
			return nil, err
		}
	}
	stmt, err := s.db.Prepare(ctx, st.Text)
	if err != nil {
		return nil, clientError(err, st)
	}
	p.stmt = stmt
	return p, nil
}

func (s *session) handleParse(m *pgproto3.Parse) error {
	if m.Name != "" {
		if _, exists := s.stmts[m.Name]; exists {
			return sqlstate.New(sqlstate.DuplicatePreparedStatement, "prepared statement %q already exists", m.Name)
		}
		if err := s.mayPrepare(m.Name); err != nil {
			return err
		}
	}
	stmts := plan.Split(m.Query)
	if len(stmts) > 1 {
		return sqlstate.New(sqlstate.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	st := plan.Statement{Kind: plan.KindEmpty}
	if len(stmts) == 1 {
		types := make([]string, len(m.ParameterOIDs))
		for i, oid := range m.ParameterOIDs {
			types[i] = pgcodec.DuckDBType(oid)
		}
		st = s.srv.planner.PlanParse(stmts[0].Text, types)
	}
	p, err := s.prepare(st)
	if err != nil {
		return err
	}
	if len(st.ArrayParams) > 0 {
		p = s.typeArrayParams(stmts[0].Text, m.ParameterOIDs, p)
	}
	p.paramOIDs = paramOIDs(p, m.ParameterOIDs)
	if old := s.stmts[m.Name]; old != nil {
		s.dropStatement(m.Name, old)
	}
	s.stmts[m.Name] = p
	s.w.send(&pgproto3.ParseComplete{})
	return nil
}

// paramOIDs takes the client's parameter types and fills the rest from
// DuckDB, or as text for a statement the front end runs itself. Where
// DuckDB cannot tell a parameter's type (it binds a table function given
// one only when the statement runs), the type the statement casts it to
// stands for it, as Postgres infers it.
func paramOIDs(p *prepared, given []uint32) []uint32 {
	if p.declared != nil {
		p = p.declared // DECLARE's parameters are its query's
	}
	n := len(given)
	if p.stmt != nil {
		n = max(n, len(p.stmt.Params()))
	}
	if p.synth != nil {
		n = max(n, p.synth.params)
	}
	oids := make([]uint32, n)
	for i := range oids {
		if i < len(given) && given[i] != 0 {
			oids[i] = given[i]
		} else if oid, ok := castOID(p, i); ok {
			oids[i] = oid
		} else if p.stmt != nil && i < len(p.stmt.Params()) {
			oids[i] = pgcodec.TypeFor(p.stmt.Params()[i]).OID
		} else if p.synth != nil {
			oids[i] = pgcodec.OIDText
		} else {
			oids[i] = pgcodec.TypeFor(sqltype.Type{ID: sqltype.Invalid}).OID
		}
	}
	return oids
}

func (s *session) handleBind(m *pgproto3.Bind) error {
	err := s.bind(m)
	if s.described != nil { // the Bind failed before it could answer the Describe
		s.described = nil
		s.w.send(&pgproto3.NoData{})
	}
	return err
}

func (s *session) bind(m *pgproto3.Bind) error {
	prep, ok := s.stmts[m.PreparedStatement]
	if !ok {
		return sqlstate.New(sqlstate.InvalidSQLStatementName, "prepared statement %q does not exist", m.PreparedStatement)
	}
	if m.DestinationPortal == "" {
		s.closeUnnamedPortal()
	} else if _, exists := s.portals[m.DestinationPortal]; exists {
		return sqlstate.New(sqlstate.DuplicateCursor, "portal %q already exists", m.DestinationPortal)
	}
	if len(m.Parameters) != len(prep.paramOIDs) {
		return sqlstate.New(sqlstate.ProtocolViolation,
			"bind message supplies %d parameters, but prepared statement %q requires %d",
			len(m.Parameters), m.PreparedStatement, len(prep.paramOIDs))
	}
	if n := len(m.ParameterFormatCodes); n > 1 && n != len(m.Parameters) {
		return sqlstate.New(sqlstate.ProtocolViolation,
			"bind message has %d parameter formats but %d parameters", n, len(m.Parameters))
	}
	args := make([]any, len(m.Parameters))
	for i, raw := range m.Parameters {
		v, err := pgcodec.DecodeParam(prep.paramOIDs[i], paramFormat(m.ParameterFormatCodes, i), raw)
		if err != nil {
			return err
		}
		args[i] = v
	}
	for _, f := range m.ResultFormatCodes {
		if f != 0 && f != 1 {
			return sqlstate.New(sqlstate.ProtocolViolation, "unsupported format code: %d", f)
		}
	}
	// Until the columns are known (a FETCH, or a statement whose columns
	// depend on its parameters' values), formats holds Bind's codes as
	// sent; start resolves them.
	p := &portal{prep: prep, args: args, formats: slices.Clone(m.ResultFormatCodes)}
	if prep.returnsRows() && prep.columnsKnown() {
		if err := checkFormats(m.ResultFormatCodes, prep.columnCount()); err != nil {
			return err
		}
		p.formats = resolveFormats(m.ResultFormatCodes, prep.columnCount())
	}
	s.portals[m.DestinationPortal] = p
	if err := s.describeBound(prep, p); err != nil {
		p.close()
		delete(s.portals, m.DestinationPortal)
		return err
	}
	s.w.send(&pgproto3.BindComplete{})
	return nil
}

// paramFormat is the format of parameter i under Bind's format-code rules.
// DecodeParam copies what it keeps, so the message buffer may be reused.
func paramFormat(codes []int16, i int) int16 {
	switch len(codes) {
	case 0:
		return 0
	case 1:
		return codes[0]
	}
	return codes[i]
}

func (s *session) handleExecute(m *pgproto3.Execute) error {
	p, ok := s.portals[m.Portal]
	if !ok {
		return sqlstate.New(sqlstate.InvalidCursorName, "portal %q does not exist", m.Portal)
	}
	return s.execute(p, int64(m.MaxRows), false)
}

func (s *session) handleClose(m *pgproto3.Close) error {
	if m.ObjectType != 'S' && m.ObjectType != 'P' {
		return sqlstate.New(sqlstate.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	if m.ObjectType == 'S' {
		if p := s.stmts[m.Name]; p != nil {
			s.dropStatement(m.Name, p)
		}
	} else if p := s.portals[m.Name]; p != nil {
		s.dropPortal(m.Name, p)
	}
	s.w.send(&pgproto3.CloseComplete{})
	return nil
}

// handleSync ends an extended-protocol batch. Outside a transaction block
// the batch's portals end with it, as Postgres' implicit transaction
// does, and so does what the batch set locally; a batch that failed
// undoes all it set.
func (s *session) handleSync() error {
	failed := s.skipUntilSync
	s.skipUntilSync = false
	if s.tx == txIdle {
		s.closePortals()
		s.endImplicit(!failed)
	}
	s.readyForQuery()
	return nil
}

// dropStatement closes a prepared statement and the portals bound to it.
func (s *session) dropStatement(name string, prep *prepared) {
	for pname, p := range s.portals {
		if p.prep == prep {
			if s.open == p {
				s.open = nil
			}
			p.close()
			delete(s.portals, pname)
		}
	}
	prep.close()
	delete(s.stmts, name)
}

// deallocate is DEALLOCATE of protocol-level prepared statements, which
// share their namespace with SQL's PREPARE in Postgres (psycopg 3 sends
// DEALLOCATE ALL to drop the ones it prepared). A name Mallard does not
// hold goes to DuckDB, whose SQL PREPARE it may be.
func (s *session) deallocate(name string) *synthetic {
	if name == "*" {
		return &synthetic{tag: "DEALLOCATE ALL", run: func(s *session, _ []any) ([][]string, error) {
			for n, p := range s.stmts {
				if n != "" {
					s.dropStatement(n, p)
				}
			}
			return nil, nil
		}}
	}
	if _, ok := s.stmts[name]; !ok {
		return nil
	}
	return &synthetic{tag: "DEALLOCATE", run: func(s *session, _ []any) ([][]string, error) {
		if p, ok := s.stmts[name]; ok {
			s.dropStatement(name, p)
		}
		return nil, nil
	}}
}

// mayRun refuses, in a read-only session, a statement the planner already
// knows writes, before anything of it runs (the sequence a serial column
// creates first, for one). What DuckDB alone can classify, its read-only
// connection refuses (see Conn.SetReadOnly).
func (s *session) mayRun(st plan.Statement) error {
	if !s.readOnly {
		return nil
	}
	switch st.Kind {
	case plan.KindInsert, plan.KindUpdate, plan.KindDelete, plan.KindMerge:
		return s.srv.db.ReadOnlyError(st.Tag)
	case plan.KindDDL:
		if !strings.HasPrefix(st.Tag, "DISCARD") && st.Tag != "DEALLOCATE" {
			return s.srv.db.ReadOnlyError(st.Tag)
		}
	}
	return nil
}

// discard is DISCARD, which poolers send to reset a session before handing
// it on: ALL closes every portal and prepared statement, resets every
// parameter and drops temporary tables and views; TEMP drops those only;
// PLANS and SEQUENCES have nothing to drop (Mallard caches no plans a
// client could see go stale, and DuckDB keeps no per-session sequence state).
func discard(tag string) *synthetic {
	return &synthetic{tag: tag, run: func(s *session, _ []any) ([][]string, error) {
		switch tag {
		case "DISCARD ALL":
			if s.tx != txIdle {
				return nil, sqlstate.New(sqlstate.ActiveSQLTransaction, "DISCARD ALL cannot run inside a transaction block")
			}
			s.closePortals()
			for n, p := range s.stmts {
				if n != "" {
					s.dropStatement(n, p)
				}
			}
			if err := s.params.reset("all"); err != nil {
				return nil, err
			}
			if err := s.syncParams(); err != nil {
				return nil, err
			}
			return nil, s.dropTemporary()
		case "DISCARD TEMP":
			return nil, s.dropTemporary()
		}
		return nil, nil
	}}
}

// dropTemporary drops the session's temporary views and tables.
func (s *session) dropTemporary() error {
	objects, err := s.queryText(`SELECT 'VIEW', view_name FROM duckdb_views() WHERE temporary AND NOT internal
		UNION ALL SELECT 'TABLE', table_name FROM duckdb_tables() WHERE temporary`)
	if err != nil {
		return err
	}
	for _, o := range objects {
		if err := s.db.Exec(s.ctx, "DROP "+o[0]+" IF EXISTS temp.main."+quoteIdent(o[1])); err != nil {
			return err
		}
	}
	return nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// castOID is the type statement p casts parameter i to, where DuckDB
// could not tell the parameter's type.
func castOID(p *prepared, i int) (uint32, bool) {
	if p.stmt == nil || i >= len(p.stmt.Params()) || p.stmt.Params()[i].ID != sqltype.Invalid || i >= len(p.plan.ParamCasts) {
		return 0, false
	}
	return pgcodec.OIDByName(p.plan.ParamCasts[i])
}
