package sqlfront

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// handleDescribe answers Describe of a prepared statement or a portal of
// any kind; it never fails for a statement or portal that exists.
//
// A statement whose result columns depend on its parameters' values (see
// prepared.columnsKnown) cannot be described before Bind: Postgres
// describes a statement from its parameters' types alone, DuckDB cannot.
// Its Describe is answered when the next message comes: if that is a Bind
// of the statement (pgjdbc sends Parse, Describe, Bind, Execute at once),
// with the columns of the portal run with the Bind's values; otherwise
// (pgx's Prepare and libpq's PQdescribePrepared send Sync) with the
// columns of the statement planned with a stand-in for each
// parameter (see describeProbed), and with NoData where that cannot be
// planned. Its portal is described by running it, so that Describe of
// the portal, which most drivers send before Execute, has the columns the
// rows will have.
func (s *session) handleDescribe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		return s.describeStatement(m.Name)
	case 'P':
		return s.describePortal(m.Name)
	}
	return sqlstate.New(sqlstate.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
}

func (s *session) describeStatement(name string) error {
	prep, ok := s.stmts[name]
	if !ok {
		return sqlstate.New(sqlstate.InvalidSQLStatementName, "prepared statement %q does not exist", name)
	}
	s.w.send(&pgproto3.ParameterDescription{ParameterOIDs: prep.paramOIDs})
	switch {
	case prep.synth != nil && prep.synth.cols != nil:
		s.w.send(syntheticDescription(prep.synth.cols))
		return nil
	case prep.plan.Cursor != nil:
		return s.describeFetch(prep, nil)
	case prep.returnsRows() && prep.columnsKnown():
		cols := prep.stmt.Columns()
		s.w.send(rowDescription(cols, make([]int16, len(cols))))
		return nil
	case prep.returnsRows():
		s.described, s.describedName = prep, name
		return nil
	}
	s.w.send(&pgproto3.NoData{})
	return nil
}

// settleDescribe answers a waiting Describe of a statement (see
// handleDescribe) unless msg is a Bind of it, which answers it.
func (s *session) settleDescribe(msg pgproto3.FrontendMessage) {
	if s.described == nil {
		return
	}
	if b, ok := msg.(*pgproto3.Bind); ok && b.PreparedStatement == s.describedName && s.stmts[b.PreparedStatement] == s.described {
		return
	}
	prep := s.described
	s.described = nil
	if cols := s.describeProbed(prep); len(cols) > 0 {
		s.w.send(rowDescription(cols, make([]int16, len(cols))))
		return
	}
	s.w.send(&pgproto3.NoData{})
}

// describeProbed returns the result columns of prep planned with a
// stand-in for each parameter (see plan.ProbeParams), or none where the
// engine cannot plan it so. A number, boolean or time parameter stands in
// as a NULL of its type, which Mallard's functions take for the argument
// left out: generate_series(1, $1::bigint) and forecast('m', steps :=
// $1::int) are described with their real columns. A text parameter
// stands in as a string that names nothing, so that a statement whose
// columns depend on its value (forecast($1), pivot_entity_time(..., time
// := $1)) fails to plan and stays undescribed until its portal is, rather
// than being described with columns it will not have. Planning runs no
// statement: it binds the table functions, which read but never write.
func (s *session) describeProbed(prep *prepared) []sqltype.Column {
	types := make([]string, len(prep.paramOIDs))
	for i, oid := range prep.paramOIDs {
		types[i] = pgcodec.DuckDBType(oid)
	}
	ctx, done := s.statementContext()
	defer done()
	stmt, err := s.db.Prepare(ctx, plan.ProbeParams(prep.plan.Text, types))
	if err != nil {
		s.log.Debug("statement not described before Bind", "error", err)
		return nil
	}
	defer stmt.Close()
	if stmt.Result() != sqltype.ResultRows {
		return nil
	}
	return stmt.Columns()
}

// describeBound answers the waiting Describe of prep with the columns of
// p, its portal just bound, which it runs to know them.
func (s *session) describeBound(prep *prepared, p *portal) error {
	if s.described != prep {
		return nil
	}
	s.described = nil
	cols, err := s.portalColumns(p)
	if err != nil {
		s.w.send(&pgproto3.NoData{})
		return err
	}
	s.w.send(rowDescription(cols, nil))
	return nil
}

func (s *session) describePortal(name string) error {
	p, ok := s.portals[name]
	if !ok {
		return sqlstate.New(sqlstate.InvalidCursorName, "portal %q does not exist", name)
	}
	switch {
	case p.prep.synth != nil && p.prep.synth.cols != nil:
		s.w.send(syntheticDescription(p.prep.synth.cols))
		return nil
	case p.prep.plan.Cursor != nil:
		return s.describeFetch(p.prep, p.formats)
	case !p.prep.returnsRows():
		s.w.send(&pgproto3.NoData{})
		return nil
	}
	cols, err := s.portalColumns(p)
	if err != nil {
		return err
	}
	s.w.send(rowDescription(cols, resolveFormats(p.formats, len(cols))))
	return nil
}

// describeFetch describes the rows of a FETCH statement or portal: those of
// its cursor, in the formats given (nil: text). Another cursor statement,
// or a FETCH of a cursor that does not exist, has none.
func (s *session) describeFetch(prep *prepared, formats []int16) error {
	op := prep.plan.Cursor
	c, ok := s.portals[op.Name]
	if op.Op != "fetch" || !ok {
		s.w.send(&pgproto3.NoData{})
		return nil
	}
	cols, err := s.portalColumns(c)
	if err != nil {
		return err
	}
	s.w.send(rowDescription(cols, resolveFormats(formats, len(cols))))
	return nil
}

// portalColumns returns the result columns of p, a portal of a statement
// that returns rows; one whose statement could not tell them before it ran
// is started now.
func (s *session) portalColumns(p *portal) ([]sqltype.Column, error) {
	if p.cols != nil {
		return p.cols, nil
	}
	if p.prep.stmt == nil {
		return nil, sqlstate.New(sqlstate.FeatureNotSupported, "this statement cannot be described as a portal")
	}
	if p.prep.columnsKnown() {
		return p.prep.stmt.Columns(), nil
	}
	if err := s.startPortal(p, false); err != nil {
		return nil, err
	}
	return p.cols, nil
}

// startPortal runs p's statement unless it has run already, under a
// context that CancelRequest reaches while it starts.
func (s *session) startPortal(p *portal, simple bool) error {
	if p.ctx != nil || p.done {
		return nil
	}
	p.ctx, p.cancel = s.portalContext()
	defer s.setRunning(p.ctx, p.cancel)()
	return s.start(p, simple)
}

// checkFormats checks Bind's result format codes against a result of n
// columns: none, one for all, or one per column.
func checkFormats(codes []int16, n int) error {
	if c := len(codes); c > 1 && c != n {
		return sqlstate.New(sqlstate.ProtocolViolation, "bind message has %d result formats but query has %d columns", c, n)
	}
	return nil
}
