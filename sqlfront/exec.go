package sqlfront

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

var errInFailedTx = &sqlstate.Error{Code: sqlstate.InFailedSQLTransaction,
	Message: "current transaction is aborted, commands ignored until end of transaction block"}

// execute runs portal p, sending at most maxRows rows (0: all). simple says
// the statement came in a simple Query, which describes its own rows.
func (s *session) execute(p *portal, maxRows int64, simple bool) (err error) {
	st := p.prep.plan
	if s.tx == txFailed && !st.IsTransactionExit() && !isRollbackTo(st) {
		return errInFailedTx
	}
	if s.tx != txIdle && changesState(st) {
		defer func() {
			if err == nil {
				s.changes++
			}
		}()
	}
	switch {
	case st.Kind == plan.KindEmpty:
		s.w.send(&pgproto3.EmptyQueryResponse{})
		return nil
	case st.Kind == plan.KindBegin, st.Kind == plan.KindCommit, st.Kind == plan.KindRollback:
		return s.transaction(st)
	case st.Kind == plan.KindSavepoint:
		return s.savepointStatement(st)
	case p.prep.copy != nil:
		return s.copy(p.prep.copy)
	case p.prep.synth != nil:
		return s.runSynthetic(p.prep.synth, p.args, simple)
	case st.Cursor != nil:
		return s.cursor(p, simple)
	}
	if p.done {
		// Postgres answers a finished portal with an empty completion.
		tag := p.prep.plan.Tag
		s.w.send(&pgproto3.CommandComplete{CommandTag: commandTag(tag, 0, tagHasCount(tag))})
		return nil
	}
	if p.ctx == nil {
		p.ctx, p.cancel = s.portalContext()
		defer s.setRunning(p.ctx, p.cancel)()
		if err := s.start(p, simple); err != nil {
			return err
		}
	} else {
		defer s.setRunning(p.ctx, p.cancel)()
	}
	return s.stream(p, maxRows)
}

// start binds and runs p's statement, making p the open portal.
func (s *session) start(p *portal, simple bool) error {
	if s.open != nil && s.open != p {
		if err := s.open.hold(s.ctx, s.srv.db); err != nil {
			return err
		}
		s.open = nil
	}
	if err := p.prep.stmt.Bind(p.args); err != nil {
		return err
	}
	if err := s.chunkByChunk(p.prep.plan); err != nil {
		return err
	}
	p.progressive = s.progressive(p.prep.plan)
	var rows Rows
	var err error
	s.await(p.progressive, func() { rows, err = p.prep.stmt.Query(p.ctx) })
	if err != nil {
		p.done = true
		return clientError(err, p.prep.plan)
	}
	p.rows, s.open = rows, p
	if rows.Result() != sqltype.ResultRows || !rowsAllowed(p.prep.plan) {
		return nil
	}
	p.cols = rows.Columns()
	if simple {
		p.formats = make([]int16, len(p.cols))
		s.w.send(rowDescription(p.cols, p.formats))
	} else if len(p.formats) != len(p.cols) {
		if err := checkFormats(p.formats, len(p.cols)); err != nil {
			return err
		}
		p.formats = resolveFormats(p.formats, len(p.cols))
	}
	p.enc, err = p.prep.encoder(p.cols, p.formats)
	return err
}

// encoder returns the row encoder of cols in formats, reusing the last one
// when the engine handed back the same cached columns and the formats are the
// same: a prepared statement executed again needs no new encoder.
func (p *prepared) encoder(cols []sqltype.Column, formats []int16) (*pgcodec.RowEncoder, error) {
	if len(cols) > 0 && len(p.encCols) == len(cols) && &p.encCols[0] == &cols[0] && slices.Equal(p.encFormats, formats) {
		return p.enc, nil
	}
	types := make([]sqltype.Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	enc, err := pgcodec.NewRowEncoder(types, formats)
	if err != nil {
		return nil, err
	}
	p.enc, p.encCols, p.encFormats = enc, cols, slices.Clone(formats)
	return enc, nil
}

// stream sends p's rows up to maxRows, then PortalSuspended or CommandComplete.
func (s *session) stream(p *portal, maxRows int64) error {
	if p.enc == nil {
		return s.complete(p, 0)
	}
	n, more, err := s.sendRows(p, maxRows, true)
	if err != nil {
		return err
	}
	if !more {
		return s.complete(p, n)
	}
	s.w.send(&pgproto3.PortalSuspended{})
	return nil
}

// sendRows sends (or, for MOVE, skips) up to maxRows rows of p (0: all).
// more reports that it stopped at the limit rather than at the end.
func (s *session) sendRows(p *portal, maxRows int64, send bool) (n int64, more bool, err error) {
	for maxRows <= 0 || n < maxRows {
		var b arrow.RecordBatch
		var err error
		s.await(p.progressive, func() { b, err = p.next() })
		noticed := s.sendNotices()
		if err != nil {
			p.done = true
			return n, false, err
		}
		if b == nil {
			return n, false, nil
		}

		if send {
			p.bound.Bind(p.enc, b.Columns())
		}
		end := int(b.NumRows())
		if maxRows > 0 {
			end = min(end, p.row+int(maxRows-n))
		}
		for ; p.row < end; p.row++ {
			if send {
				at := s.w.beginMessage('D')
				s.w.buf = p.bound.AppendRow(s.w.buf, p.row)
				s.w.endMessage(at)
			}
			n++
		}
		if noticed || p.progressive { // progress: each row goes out as it comes
			s.w.flush()
		}
		if s.w.err != nil {
			return n, false, s.w.err
		}
	}
	return n, true, nil
}

// complete ends p's result with CommandComplete. Like Postgres, a result
// read in several Executes reports the rows of the last one, sent.
func (s *session) complete(p *portal, sent int64) error {
	p.done = true
	var err error
	if p.rows != nil {
		err = p.rows.Close()
	}
	s.sendNotices()
	affected := int64(0)
	if p.rows != nil {
		affected = p.rows.RowsAffected()
	}
	p.rows = nil
	if s.open == p {
		s.open = nil
	}
	if err != nil {
		return err
	}
	s.notePrepared(p.prep.plan)
	count := affected
	if p.enc != nil {
		count = sent
	}
	tag := p.prep.plan.Tag
	s.completed(tag, count)
	s.w.send(&pgproto3.CommandComplete{CommandTag: commandTag(tag, count, tagHasCount(tag))})
	return nil
}

func tagHasCount(tag string) bool {
	switch tag {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "COPY", "FETCH", "MOVE":
		return true
	}
	return false
}

// transaction runs BEGIN, COMMIT or ROLLBACK with Postgres' semantics on top
// of DuckDB's: BEGIN inside a block and COMMIT or ROLLBACK outside one only
// warn, and COMMIT of a failed block rolls it back, undoing the block's
// SETs as ROLLBACK does. Outside a block, COMMIT and ROLLBACK end an
// extended-protocol batch's implicit transaction, and BEGIN turns it into
// the block.
func (s *session) transaction(st plan.Statement) error {
	s.closePortals()
	tag := st.Tag
	switch {
	case st.Kind == plan.KindBegin && s.tx != txIdle:
		s.sendNotice("WARNING", sqlstate.ActiveSQLTransaction, "there is already a transaction in progress")
	case st.Kind != plan.KindBegin && s.tx == txIdle:
		s.sendNotice("WARNING", sqlstate.NoActiveSQLTransaction, "there is no transaction in progress")
		defer s.endImplicit(st.Kind == plan.KindCommit)
	case st.Kind == plan.KindBegin:
		if err := s.db.Exec(s.ctx, "BEGIN TRANSACTION"); err != nil {
			return err
		}
		s.tx = txActive
		s.beginBlock()
		s.params.begin(true)
	case st.Kind == plan.KindCommit && s.tx == txActive:
		s.tx = txIdle
		if err := s.db.Exec(s.ctx, "COMMIT"); err != nil {
			s.db.Exec(s.ctx, "ROLLBACK")
			defer s.endParams(false)
			return err
		}
		defer s.endParams(true)
	default: // ROLLBACK, or COMMIT of a failed block
		s.tx = txIdle
		s.db.Exec(s.ctx, "ROLLBACK") // DuckDB may have ended the block itself already
		tag = "ROLLBACK"
		defer s.endParams(false)
	}
	s.completed(tag, 0)
	s.w.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	return nil
}

// closePortals closes every portal but cursors declared WITH HOLD;
// Postgres drops them at the end of a transaction.
func (s *session) closePortals() {
	for name, p := range s.portals {
		if !p.withHold {
			s.dropPortal(name, p)
		}
	}
}

// closeAll releases every portal and prepared statement of the session.
func (s *session) closeAll() {
	s.closePortals()
	for name, p := range s.stmts {
		p.close()
		delete(s.stmts, name)
	}
}

// rowDescription describes cols sent in formats, one per column; a column
// without one is text.
func rowDescription(cols []sqltype.Column, formats []int16) *pgproto3.RowDescription {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, c := range cols {
		t := pgcodec.TypeFor(c.Type)
		fields[i] = pgproto3.FieldDescription{
			Name: []byte(c.Name), DataTypeOID: t.OID, DataTypeSize: t.Size,
			TypeModifier: t.Typmod,
		}
		if i < len(formats) {
			fields[i].Format = formats[i]
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

// resolveFormats expands Bind's result format codes to one per column.
func resolveFormats(codes []int16, n int) []int16 {
	out := make([]int16, n)
	switch len(codes) {
	case 0:
	case 1:
		for i := range out {
			out[i] = codes[0]
		}
	default:
		copy(out, codes)
	}
	return out
}

// setRunning makes cancel the running statement's, whose context is ctx,
// until the returned func is called. Once ctx is done, writes to the
// client are bounded (see limitWrites) until the next flush before a
// message is read succeeds (see liftWriteLimit).
func (s *session) setRunning(ctx context.Context, cancel context.CancelCauseFunc) func() {
	s.mu.Lock()
	s.running = cancel
	s.mu.Unlock()
	limited := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(limited)
		s.limitWrites()
	})
	return func() {
		s.mu.Lock()
		s.running = nil
		s.mu.Unlock()
		if !stop() {
			<-limited // no deadline may be set after the limit is lifted
			s.writeLimit = context.Cause(ctx)
		}
	}
}

// endParams ends the parameters' transaction block (see params.end),
// keeping its SETs on commit, and mirrors and reports what that changed.
func (s *session) endParams(commit bool) {
	if !s.params.end(commit) {
		return
	}
	if err := s.syncParams(); err != nil {
		s.log.Warn("restore parameters at the end of a transaction", "err", err)
	}
	s.sendReported()
}

// endImplicit ends the implicit transaction of an extended-protocol batch
// or of a simple Query, if one is open outside a transaction block (see
// paramTx): a commit keeps its plain SETs; what it set locally ends.
func (s *session) endImplicit(commit bool) {
	if s.tx == txIdle && s.params.inTransaction() {
		s.endParams(commit)
	}
}

// portalContext is the context of one execution: canceled by
// CancelRequest, by the client going away and after statement_timeout.
func (s *session) portalContext() (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(s.srv.db.WithNotifier(s.ctx, s.notices.add))
	if t := s.params.timeout; t > 0 {
		tctx, stop := context.WithTimeoutCause(ctx, t, &sqlstate.Error{Code: sqlstate.QueryCanceled,
			Message: "canceling statement due to statement timeout"})
		return tctx, func(cause error) { cancel(cause); stop() }
	}
	return ctx, cancel
}

// clientError adjusts a DuckDB error to the client's statement: a position
// in rewritten text would point at the wrong place, so it is dropped.
func clientError(err error, st plan.Statement) error {
	if !st.Rewritten {
		return err
	}
	e := *sqlstate.From(err)
	e.Position = 0
	return &e
}

// progressive reports whether plan calls a function whose rows report
// progress (see Config.Progressive).
func (s *session) progressive(st plan.Statement) bool {
	return slices.ContainsFunc(st.Calls, func(c string) bool { return slices.Contains(s.srv.cfg.Progressive, c) })
}

// chunkByChunk makes DuckDB hand over each result chunk as soon as it is
// produced while the session runs statements that call a progressive
// function, and buffer ahead (its default, faster for bulk results)
// otherwise. The setting changes only when the kind of statement does.
//
// Even chunk by chunk, DuckDB hands over a chunk only once the function has
// produced the next one (or ended): its pipeline asks the source for the
// next chunk before it yields the one it put in the result buffer, and a
// streaming result is ready only once a chunk waits behind a full buffer.
// So a progressive function's row arrives one row late; its notices do
// not (see await).
func (s *session) chunkByChunk(st plan.Statement) error {
	want := s.progressive(st)
	if want == s.smallBuffer {
		return nil
	}
	q := "RESET streaming_buffer_size"
	if want {
		q = "SET streaming_buffer_size = '1B'"
	}
	if err := s.db.Exec(s.ctx, q); err != nil {
		return err
	}
	s.smallBuffer = want
	return nil
}
