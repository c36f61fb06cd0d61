package sqlfront

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// Transaction status as ReadyForQuery reports it.
const (
	txIdle   = 'I'
	txActive = 'T'
	txFailed = 'E'
)

// session is one client connection after startup. Its goroutine owns every
// field except those under mu, which CancelRequest and Shutdown reach from
// other goroutines.
type session struct {
	srv     *Server
	notices *notices // queued by functions of the running statement
	// smallBuffer says DuckDB's streaming buffer is set to one chunk (see chunkByChunk).
	smallBuffer bool
	conn        net.Conn
	be          *pgproto3.Backend
	src         *swapReader
	br          io.Reader
	w           *writer
	out         *graceWriter // what w writes to (see cancelWriteGrace)
	ra          *readAhead
	db          Conn
	log         *slog.Logger
	key         cancelKey
	startup     map[string]string // the StartupMessage's parameters
	readOnly    bool              // the session's role may only read (Config.Reader)
	tls         bool              // the client negotiated TLS
	started     time.Time         // backend_start
	counted     *countingConn     // the bytes the connection carried
	requests    int               // statements run, counted at ReadyForQuery
	act         activity          // what pg_stat_activity shows

	// ctx ends when the client goes away or the server shuts down; every
	// statement's context derives from it.
	ctx  context.Context
	stop context.CancelCauseFunc

	mu      sync.Mutex
	running context.CancelCauseFunc // cancels the running statement, if any
	// writeLimit is why the last statement was canceled, while writes are
	// bounded for it (see limitWrites); the session goroutine owns it.
	writeLimit error

	params        *params
	mirrored      map[string]string // the value of each parameter's DuckDB variable once set, by lower-cased name (see syncParams)
	tx            byte
	stmts         map[string]*prepared
	sqlPrepared   map[string]bool // names of the statements SQL PREPARE holds in DuckDB (see mayPrepare)
	portals       map[string]*portal
	skipUntilSync bool
	// described is the statement whose Describe waits for the next
	// message (see describeStatement), named describedName.
	described     *prepared
	describedName string
	open          *portal // the portal whose result holds the DuckDB connection
	// savepoints are the transaction block's savepoints, oldest first, and
	// changes counts the statements of the block that changed data or
	// settings (see savepoint.go).
	savepoints []savepoint
	changes    int
}

// serveConn runs one connection from startup to close.
func (s *Server) serveConn(c net.Conn) {
	defer s.wg.Done()
	defer c.Close()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetNoDelay(true) // Go's default, stated: small responses must not wait
	}
	started := time.Now()
	c.SetDeadline(started.Add(s.cfg.AuthenticationTimeout))
	if err := s.addStarting(c); err != nil {
		s.refuseStartup(c, err)
		return
	}
	counted := &countingConn{Conn: c}
	st := &startup{srv: s}
	st.reset(counted)
	err := st.run()
	s.removeStarting(c)
	if err != nil && time.Since(started) >= s.cfg.AuthenticationTimeout && !s.closing() {
		err = errStartupTimeout
	}
	if err != nil {
		s.logStartupFailure(c, st, err)
		return
	}
	if !s.admit() {
		s.log.Warn("connection refused: too many clients", "client", c.RemoteAddr().String(), "user", st.params["user"], "max_connections", s.cfg.MaxConnections)
		st.fatal(sqlstate.New(sqlstate.TooManyConnections, "sorry, too many clients already").
			WithDetail("The server takes %d sessions at once (--max-connections).", s.cfg.MaxConnections))
		return
	}
	defer s.leave()
	db, err := s.db.Connect()
	if err != nil {
		st.fatal(s.setupFailed(c, st.params["user"], err))
		return
	}
	if st.readOnly {
		db.SetReadOnly()
	}
	sess := &session{
		srv: s, notices: newNotices(), conn: st.conn, out: st.out, be: st.be, src: st.src, br: st.br, w: st.w, db: db, startup: st.params,
		readOnly: st.readOnly, started: started, log: s.log, counted: counted, tls: st.encrypted(),
		tx: txIdle, stmts: map[string]*prepared{}, sqlPrepared: map[string]bool{}, portals: map[string]*portal{},
		act: activity{state: stateIdle, stateChange: time.Now(), appName: st.params["application_name"],
			statements: map[string]string{}, portals: map[string]string{}},
	}
	sess.ctx, sess.stop = context.WithCancelCause(context.Background())
	sess.params = newParams(st.params, s.cfg.ServerVersion, s.cfg.StatementTimeout, s.cfg.MaxPrepared)
	if err := sess.init(); err != nil {
		db.Close()
		st.fatal(s.setupFailed(c, st.params["user"], err))
		return
	}
	s.register(sess)
	defer s.unregister(sess)
	if err := db.Exec(sess.ctx, fmt.Sprintf("SET VARIABLE mallard_backend_pid = %d", sess.key.pid)); err != nil {
		db.Close()
		st.fatal(s.setupFailed(c, st.params["user"], err))
		return
	}
	sess.log = s.log.With("pid", sess.key.pid, "user", st.params["user"], "client", c.RemoteAddr().String())
	sess.sessionStarted()
	defer sess.sessionEnded()
	if s.closing() {
		sess.terminate(&sqlstate.Error{Code: sqlstate.AdminShutdown, Severity: "FATAL",
			Message: "terminating connection due to administrator command"})
	}
	sess.run()
}

// run serves messages until the connection ends, then releases everything
// the session holds.
func (s *session) run() {
	s.ra = startReadAhead(s.br, func() {
		s.stop(&sqlstate.Error{Code: sqlstate.ConnectionFailure, Message: "client connection closed"})
	})
	s.src.r = s.ra
	defer func() {
		s.closeAll()
		s.db.Close()
		s.conn.Close()
		s.ra.wait()
		s.stop(nil)
	}()
	defer s.recoverPanic()
	s.sendStartupParams()
	s.readyForQuery()
	for {
		if err := s.w.flush(); err != nil {
			s.writeFailed()
			return
		}
		s.liftWriteLimit()
		msg, err := s.be.Receive()
		if err != nil {
			s.receiveFailed(err)
			return
		}
		if _, ok := msg.(*pgproto3.Terminate); ok {
			return
		}
		if cause := context.Cause(s.ctx); sqlstate.CodeOf(cause) == sqlstate.AdminShutdown {
			// pg_terminate_backend or a shutdown ended the session while
			// this message sat in the read-ahead: it must not run.
			s.sendFatal(sqlstate.From(cause))
			return
		}
		if s.skipUntilSync && !isSync(msg) {
			continue
		}
		s.busy(msg)
		if err := s.dispatch(msg); err != nil {
			s.writeFailed()
			s.sendFatal(sqlstate.From(err))
			return
		}
	}
}

func isSync(msg pgproto3.FrontendMessage) bool {
	_, ok := msg.(*pgproto3.Sync)
	return ok
}

// recoverPanic turns a panic outside the handling of a message (see
// dispatch) into a FATAL error for this connection only.
func (s *session) recoverPanic() {
	if r := recover(); r != nil {
		s.log.Error("session panic", "panic", r, "stack", string(debug.Stack()))
		s.w.dropPartial()
		s.sendFatal(panicError(r))
	}
}

// dispatch handles msg. A panic while handling it fails the statement the
// message belongs to with XX000 and a short message, as an error would,
// and the session goes on; the stack goes to the log.
func (s *session) dispatch(msg pgproto3.FrontendMessage) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("statement panic", "panic", r, "message", fmt.Sprintf("%T", msg), "stack", string(debug.Stack()))
			err = s.recovered(msg, panicError(r))
		}
	}()
	s.settleDescribe(msg)
	return s.handleMessage(msg)
}

// recovered reports e, the panic of a message's handling, as that
// message's error: a simple Query ends with ReadyForQuery and what its
// implicit transaction did is rolled back; an extended-protocol message
// skips to Sync; a Sync still ends its batch.
func (s *session) recovered(msg pgproto3.FrontendMessage, e *sqlstate.Error) error {
	s.w.dropPartial()
	if s.open != nil {
		s.open.close() // its result may be half read
		s.open = nil
	}
	switch msg.(type) {
	case *pgproto3.Query:
		if s.tx == txIdle {
			s.db.Exec(s.ctx, "ROLLBACK") // DuckDB may be inside the Query's implicit block
			s.endImplicit(false)
		}
		return s.simpleDone(e)
	case *pgproto3.Sync:
		s.fail(e)
		s.skipUntilSync = false
		s.readyForQuery()
		return nil
	}
	return s.extended(e)
}

// panicError is the error a client sees for a recovered panic: the panic's
// value, cut short.
func panicError(r any) *sqlstate.Error {
	msg := fmt.Sprint(r)
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	return &sqlstate.Error{Code: sqlstate.InternalError, Message: "internal error: " + msg,
		Hint: "This is a bug in Mallard; the server log has its stack trace."}
}

// receiveFailed reports a malformed or oversized message before closing.
func (s *session) receiveFailed(err error) {
	if cause := context.Cause(s.ctx); sqlstate.CodeOf(cause) == sqlstate.AdminShutdown {
		s.sendFatal(sqlstate.From(cause))
		return
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || s.ctx.Err() != nil {
		return
	}
	var tooBig *pgproto3.ExceededMaxBodyLenErr
	if errors.As(err, &tooBig) {
		s.sendFatal(sqlstate.New(sqlstate.ProtocolViolation,
			"message of %d bytes exceeds the limit of %d bytes", tooBig.ActualBodyLen, tooBig.MaxExpectedBodyLen))
		return
	}
	s.sendFatal(sqlstate.New(sqlstate.ProtocolViolation, "invalid frontend message: %v", err))
}

func (s *session) sendFatal(e *sqlstate.Error) {
	e.Severity = "FATAL"
	s.w.send(errorResponse(e))
	s.w.flush()
}

// handleMessage dispatches one message; it does nothing else. A returned
// error ends the connection; statement errors are reported by fail.
func (s *session) handleMessage(msg pgproto3.FrontendMessage) error {
	switch m := msg.(type) {
	case *pgproto3.Query:
		return s.handleQuery(m)
	case *pgproto3.Parse:
		return s.extended(s.handleParse(m))
	case *pgproto3.Bind:
		return s.extended(s.handleBind(m))
	case *pgproto3.Describe:
		return s.extended(s.handleDescribe(m))
	case *pgproto3.Execute:
		return s.extended(s.handleExecute(m))
	case *pgproto3.Close:
		return s.extended(s.handleClose(m))
	case *pgproto3.Sync:
		return s.handleSync()
	case *pgproto3.Flush:
		return s.w.flush()
	case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
		return nil // stray copy messages after a failed COPY are ignored, as Postgres does
	}
	return sqlstate.New(sqlstate.ProtocolViolation, "unexpected message %T", msg)
}

// extended reports a statement error of an extended-protocol message and
// starts skipping messages until Sync. This is the only place that sets
// skipUntilSync.
func (s *session) extended(err error) error {
	if err == nil {
		return nil
	}
	if fatal := s.fatalError(err); fatal != nil {
		return fatal
	}
	s.fail(err)
	s.skipUntilSync = true
	return nil
}

// fatalError returns err if it must end the connection: a write to the
// client failed or the client is gone.
func (s *session) fatalError(err error) error {
	if s.w.err != nil {
		return s.w.err
	}
	if e := sqlstate.From(err); e.Severity == "FATAL" {
		return e
	}
	return nil
}

// fail sends err as an ErrorResponse and marks an open transaction failed.
func (s *session) fail(err error) {
	err = s.invalidated(err)
	s.sendNotices()
	e := sqlstate.From(err)
	s.act.failed = true
	s.logFailure(e)
	s.w.send(errorResponse(e))
	if s.tx == txActive {
		s.tx = txFailed
	}
}

func (s *session) readyForQuery() {
	s.idle()
	s.w.send(&pgproto3.ReadyForQuery{TxStatus: s.tx})
}

// terminate ends the session from another goroutine: the running statement
// is canceled and the session goroutine stops at its next message.
func (s *session) terminate(cause *sqlstate.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop(cause)
	s.conn.SetReadDeadline(pastDeadline())
	// A client that does not read must not hold Shutdown: a write blocked
	// on it fails after a grace period that suffices to deliver 57P01.
	s.conn.SetWriteDeadline(time.Now().Add(time.Second))
}

// cancelStatement cancels the statement running now, if any.
func (s *session) cancelStatement(cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running != nil {
		s.running(cause)
	}
}

// statementContext returns the context for one statement; done must be
// called when the statement ends.
func (s *session) statementContext() (ctx context.Context, done func()) {
	ctx, cancel := s.portalContext() // statement_timeout counts preparing too, as in Postgres
	end := s.setRunning(ctx, cancel)
	return ctx, func() {
		end()
		cancel(nil)
	}
}

// cancelWriteGrace is how long a write of a canceled statement's result
// (by CancelRequest, pg_cancel_backend or statement_timeout) may go
// without progress. A client that reads gets the rest of what was sent,
// then the 57014, however slowly it reads; one that stopped reading, so
// that the write moves no byte for the grace, loses its connection, as
// Postgres closes a connection it cannot deliver to: the protocol stream
// is cut inside a message and cannot go on. The grace counts from each
// write, not from the cancel, so that a server slow to get to its write
// (a loaded machine) does not pass for a client that stopped reading.
const cancelWriteGrace = time.Second

// graceWriter writes to conn; while limited, each write must move a byte
// every cancelWriteGrace or fail.
type graceWriter struct {
	conn    net.Conn
	limited atomic.Bool
}

// Write writes p, giving a limited write a new grace for as long as the
// client takes some of it.
func (g *graceWriter) Write(p []byte) (int, error) {
	written := 0
	for {
		limited := g.limited.Load()
		if limited {
			g.conn.SetWriteDeadline(time.Now().Add(cancelWriteGrace))
		}
		n, err := g.conn.Write(p[written:])
		written += n
		var ne net.Error
		if err == nil || !limited || n == 0 || !errors.As(err, &ne) || !ne.Timeout() {
			return written, err
		}
	}
}

// limitWrites bounds the writes of a statement whose context is done by
// cancelWriteGrace, unless the session is ending (terminate then owns the
// deadline). The deadline set here ends a write blocked since before the
// cancel; graceWriter sets the next ones.
func (s *session) limitWrites() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() == nil {
		s.out.limited.Store(true)
		s.conn.SetWriteDeadline(time.Now().Add(cancelWriteGrace))
	}
}

// liftWriteLimit removes the bound limitWrites set, once the canceled
// statement's result, error and ReadyForQuery have been written.
func (s *session) liftWriteLimit() {
	if s.writeLimit == nil {
		return
	}
	s.writeLimit = nil
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() == nil {
		s.out.limited.Store(false)
		s.conn.SetWriteDeadline(time.Time{})
	}
}

// writeFailed logs, when a write failed within the bound set for a
// canceled statement, that its result could not be delivered, so that
// the connection ends (see cancelWriteGrace).
func (s *session) writeFailed() {
	if s.writeLimit == nil || s.w.err == nil {
		return
	}
	e := sqlstate.From(s.writeLimit)
	s.log.Warn("statement canceled while the client was not reading its result: connection closed",
		"sqlstate", string(e.Code), "error", e.Message, "write_error", s.w.err.Error())
}

// sessionSettings give a session's DuckDB connection Postgres' semantics
// where DuckDB has a switch for them: integer division of integers,
// NULLs sorting as larger than every value (last ascending, first
// descending), and Arrow results that keep a timetz's offset.
var sessionSettings = []string{
	"SET schema = '" + DefaultSchema + "'",
	"SET integer_division = true",
	"SET default_null_order = 'nulls_last_on_asc_first_on_desc'",
	"SET arrow_lossless_conversion = true",
}

// init prepares the session's DuckDB connection: Postgres' semantics, the
// default schema, and the parameters the client gave at startup.
func (s *session) init() error {
	for _, q := range sessionSettings {
		if err := s.db.Exec(s.ctx, q); err != nil {
			return err
		}
	}
	if tz := s.params.get("TimeZone"); tz != "UTC" {
		s.params.reported = append(s.params.reported, "TimeZone")
	}
	err := s.syncParams()
	s.params.reported = s.params.reported[:0]
	return err
}

func (s *session) sendStartupParams() {
	for _, def := range plan.Parameters() {
		if def.Reported {
			s.w.send(&pgproto3.ParameterStatus{Name: def.Name, Value: s.params.get(def.Name)})
		}
	}
	s.w.send(&pgproto3.BackendKeyData{ProcessID: s.key.pid, SecretKey: secretBytes(s.key.secret)})
}

// pastDeadline is a deadline already passed: setting it wakes a blocked read or write.
func pastDeadline() time.Time { return time.Unix(1, 0) }

func secretBytes(v uint32) []byte {
	return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
}
