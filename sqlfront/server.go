// Package sqlfront is Mallard's Postgres wire protocol (v3) server: startup,
// TLS, authentication, the simple and extended query protocols, COPY,
// cancellation and notices. One goroutine serves each connection; each
// connection has its own DuckDB connection.
//
// A connection ends in one of four ways: the client sends Terminate or
// closes the socket; the protocol is violated (an 08P01 ErrorResponse is
// sent if possible); a panic in the session is recovered (XX000); or the
// server shuts down (57P01). In every case only that connection is closed.
package sqlfront

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/mallard/mallard/planner/catalog"
	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/statements"
	"github.com/mallard/mallard/sqlstate"
)

// DefaultMaxMessageSize is the largest frontend message accepted by default.
const DefaultMaxMessageSize = 64 << 20

// DefaultAuthenticationTimeout is Postgres' default authentication_timeout.
const DefaultAuthenticationTimeout = time.Minute

// Config is how the server accepts and authenticates clients.
type Config struct {
	// TLS, when set, is offered to clients that send SSLRequest.
	TLS *tls.Config
	// Credentials, when set, require SCRAM-SHA-256 for every connection;
	// otherwise every connection is trusted.
	Credentials *Credentials
	// Reader, when set with Credentials, is a second user whose sessions
	// are read-only: they may query and call forecast, recommend and
	// evaluate, but not write, train or change DuckDB settings (42501).
	Reader *Credentials
	// RequireTLS refuses sessions that did not negotiate TLS.
	RequireTLS bool
	// MaxMessageSize caps one frontend message; 0 means DefaultMaxMessageSize.
	MaxMessageSize int
	// StatementTimeout is the sessions' default statement_timeout; 0 means none.
	StatementTimeout time.Duration
	// MaxConnections caps the client sessions at once; 0 means no cap.
	// A client past it is refused with 53300, as Postgres refuses one past
	// max_connections.
	MaxConnections int
	// AuthenticationTimeout bounds how long a connection may take to
	// start up and authenticate, as Postgres' authentication_timeout; one
	// that takes longer is closed and logged. 0 means
	// DefaultAuthenticationTimeout.
	AuthenticationTimeout time.Duration
	// MaxStartups caps the connections not yet past startup (TLS,
	// StartupMessage, authentication; CancelRequests too); one more is
	// closed at once with 53300 and logged. 0 means MaxConnections (no cap
	// when that is 0 too), so that a client cannot hold more connections
	// open by never finishing startup than it could hold as sessions.
	MaxStartups int
	// AuthDelay and MaxAuthDelay delay the answer to a failed login: by
	// AuthDelay times the failures in a row from the client's address, at
	// most MaxAuthDelay (see loginThrottle). 0 means DefaultAuthDelay and
	// DefaultMaxAuthDelay.
	AuthDelay, MaxAuthDelay time.Duration
	// SlowStatement, when positive, logs every statement that takes at
	// least this long, with its text (Postgres' log_min_duration_statement;
	// Postgres' 0, log every statement, is any tiny duration here).
	SlowStatement time.Duration
	// StatementStats, when positive, keeps statistics of at most this many
	// groups of statements for pg_stat_statements (Postgres'
	// pg_stat_statements.max); 0 keeps none.
	StatementStats int
	// QuerySize is the bytes of each statement's text that
	// pg_stat_statements keeps, as Postgres' track_activity_query_size;
	// statements.DefaultQuerySize when 0.
	QuerySize int
	// MaxPrepared is the sessions' default mallard.max_prepared_statements;
	// DefaultMaxPrepared when 0.
	MaxPrepared int
	// Observer, when set, is told of sessions and statements, for metrics.
	Observer Observer
	// ServerVersion is reported as server_version.
	ServerVersion string
	// CatalogSQL installs the system catalog that the planner's catalog
	// names (see server.Catalog); without it, New installs DefaultCatalog's.
	CatalogSQL []string
	// Progressive are the Mallard table functions whose rows report progress
	// (one per training epoch): statements calling them have DuckDB hand
	// over each chunk as soon as it can (see chunkByChunk), send each row
	// at once, and send each notice as soon as the function queues it.
	Progressive []string
}

// Server serves Postgres clients on a DuckDB database.
type Server struct {
	cfg     Config
	db      Engine
	log     *slog.Logger
	planner Planner
	stats   *statements.Table // nil when Config.StatementStats is 0
	// throttle delays failed logins, wire and HTTP.
	throttle *loginThrottle

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	sessions  map[cancelKey]*session
	admitted  int                   // sessions past startup and not yet ended, for MaxConnections
	starting  map[net.Conn]struct{} // connections in startup
	shutdown  bool
	wg        sync.WaitGroup // one per running connection goroutine
}

type cancelKey struct{ pid, secret uint32 }

// New returns a server for db whose sessions plan their SQL with p, after
// preparing db for Postgres clients: the schema public that sessions use
// by default, and the catalog. It accepts nothing until Serve.
func New(ctx context.Context, cfg Config, db Engine, p Planner, log *slog.Logger) (*Server, error) {
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = DefaultMaxMessageSize
	}
	if cfg.AuthenticationTimeout <= 0 {
		cfg.AuthenticationTimeout = DefaultAuthenticationTimeout
	}
	if cfg.MaxStartups <= 0 {
		cfg.MaxStartups = cfg.MaxConnections
	}
	if cfg.CatalogSQL == nil {
		_, cfg.CatalogSQL = DefaultCatalog()
	}
	setup := append([]string{"CREATE SCHEMA IF NOT EXISTS " + DefaultSchema}, cfg.CatalogSQL...)
	if err := installCatalog(ctx, db, setup); err != nil {
		return nil, err
	}
	db.OnReopen(func(ctx context.Context) error { return installCatalog(ctx, db, setup) })
	var stats *statements.Table
	if cfg.StatementStats > 0 {
		stats = statements.New(cfg.StatementStats, cfg.QuerySize, p.Fingerprint)
	}
	return &Server{
		cfg: cfg, db: db, log: log, planner: p, stats: stats,
		throttle:  newLoginThrottle(cfg.AuthDelay, cfg.MaxAuthDelay),
		listeners: map[net.Listener]struct{}{},
		sessions:  map[cancelKey]*session{},
		starting:  map[net.Conn]struct{}{},
	}, nil
}

// DefaultCatalog is Mallard's Postgres-compatible catalog from
// planner/catalog, and the statements that install it.
func DefaultCatalog() (plan.Catalog, []string) {
	return plan.Catalog{
		Database: catalog.Database, PGSchema: catalog.PGSchema, InfoSchema: catalog.InfoSchema,
		Views: catalog.Views(), InfoViews: catalog.InfoViews(),
		Macros: catalog.Macros(), InfoMacros: catalog.InfoMacros(),
	}, catalog.Statements()
}

// DefaultSchema is where sessions create and find tables, as in Postgres.
// DuckDB's own default schema, main, stays reachable by name.
const DefaultSchema = "public"

// ErrServerClosed is returned by Serve after Shutdown.
var ErrServerClosed = errors.New("sqlfront: server closed")

// Serve accepts connections on ln until Shutdown. Temporary accept errors
// are retried with backoff, as net/http does.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if s.closing() {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscallEMFILE) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				s.log.Warn("accept", "err", err, "retry_in", delay)
				time.Sleep(delay)
				continue
			}
			return fmt.Errorf("accept: %w", err)
		}
		delay = 0
		if !s.track() {
			c.Close()
			return ErrServerClosed
		}
		go s.serveConn(c)
	}
}

// Accepting reports whether the server accepts clients: it serves a
// listener and is not shutting down.
func (s *Server) Accepting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.shutdown && len(s.listeners) > 0
}

func (s *Server) closing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// track counts a new connection goroutine unless the server is shutting down.
func (s *Server) track() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return false
	}
	s.wg.Add(1)
	return true
}

// Shutdown stops accepting, cancels running statements, tells every client
// the server is going away (57P01) and waits for the connections to end or
// ctx to expire.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.stopAccepting()
	for _, sess := range s.sessions {
		sess.terminate(errAdminShutdown())
	}
	s.mu.Unlock()
	return s.waitConns(ctx)
}

// Drain is the gentle first half of a shutdown, Postgres' smart shutdown
// made fast for idle clients: it stops accepting, ends every session that
// runs no statement at once (57P01; an open transaction is rolled back),
// and ends each other session once its statement has completed and its
// result is sent. It returns nil when every connection has ended, or
// ctx's error when ctx ends first; Shutdown then cancels what still runs.
func (s *Server) Drain(ctx context.Context) error {
	s.mu.Lock()
	s.stopAccepting()
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	ended := map[*session]bool{}
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for {
		s.endIdle(ended)
		select {
		case <-done: // first, so that a server without sessions drains at a grace of 0
			return nil
		default:
		}
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// drainPoll is how often Drain looks for sessions whose statement has
// completed. It bounds how long such a session waits for its 57P01.
const drainPoll = 10 * time.Millisecond

// endIdle terminates each session, not yet in ended, that runs no
// statement, and adds it to ended.
func (s *Server) endIdle(ended map[*session]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sess := range s.sessions {
		if ended[sess] {
			continue
		}
		sess.act.mu.Lock()
		running := sess.act.state == stateActive
		sess.act.mu.Unlock()
		if !running {
			ended[sess] = true
			sess.terminate(errAdminShutdown())
		}
	}
}

// stopAccepting closes the listeners and ends the connections still in
// startup; sessions that register from now on end at once. s.mu is held.
func (s *Server) stopAccepting() {
	s.shutdown = true
	for ln := range s.listeners {
		ln.Close()
	}
	for c := range s.starting {
		c.SetDeadline(pastDeadline())
	}
}

// waitConns waits for every connection goroutine to end, or ctx.
func (s *Server) waitConns(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errAdminShutdown is what a session ended by the server's shutdown, or
// by pg_terminate_backend, is told, as Postgres tells it.
func errAdminShutdown() *sqlstate.Error {
	return &sqlstate.Error{Code: sqlstate.AdminShutdown, Severity: "FATAL",
		Message: "terminating connection due to administrator command"}
}

// AwaitEnd waits up to timeout for the session with process id pid to
// end, for pg_terminate_backend(pid, timeout). It is true if the session
// has ended (or there is none, or it is the caller's own); on timeout it sends the session whose
// engine connection is by a WARNING, as Postgres does, and is false.
func (s *Server) AwaitEnd(by uint64, pid int64, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		target, caller := s.findSessions(pid, by)
		if target == nil || target == caller { // a session ends itself once the statement does
			return true
		}
		if !time.Now().Before(deadline) {
			if caller != nil {
				caller.notices.warn(fmt.Sprintf("backend with PID %d did not terminate within %d milliseconds", pid, timeout.Milliseconds()))
			}
			return false
		}
		time.Sleep(min(drainPoll, time.Until(deadline)))
	}
}

// findSessions returns the session with process id pid and the one whose
// engine connection is by, the caller of a function that signals it;
// either is nil where there is none.
func (s *Server) findSessions(pid int64, by uint64) (target, caller *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sess := range s.sessions {
		if int64(sess.key.pid) == pid {
			target = sess
		}
		if sess.db.ID() == by {
			caller = sess
		}
	}
	return target, caller
}

// register gives sess a fresh cancel key.
func (s *Server) register(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		k := cancelKey{pid: rand.Uint32()>>1 + 1, secret: rand.Uint32()}
		if !s.pidTaken(k.pid) {
			sess.key = k
			s.sessions[k] = sess
			return
		}
	}
}

// pidTaken reports whether a session has process id pid, which must name
// one session for pg_cancel_backend. s.mu is held.
func (s *Server) pidTaken(pid uint32) bool {
	for k := range s.sessions {
		if k.pid == pid {
			return true
		}
	}
	return false
}

func (s *Server) unregister(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, sess.key)
}

// cancel cancels the running statement of the session with key k, if any.
// A wrong key is ignored silently, as Postgres does.
func (s *Server) cancel(k cancelKey) {
	s.mu.Lock()
	sess := s.sessions[k]
	s.mu.Unlock()
	if sess != nil {
		sess.cancelStatement(&sqlstate.Error{Code: sqlstate.QueryCanceled,
			Message: "canceling statement due to user request"})
	}
}

// admit counts a new session in, unless MaxConnections are in already.
func (s *Server) admit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg.MaxConnections > 0 && s.admitted >= s.cfg.MaxConnections {
		return false
	}
	s.admitted++
	return true
}

// leave counts an admitted session out.
func (s *Server) leave() {
	s.mu.Lock()
	s.admitted--
	s.mu.Unlock()
}

// Sessions is the number of client sessions past startup.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// errTooManyStartups refuses a connection past Config.MaxStartups.
var errTooManyStartups = errors.New("too many connections in startup")

// addStarting counts c among the connections in startup; it fails with
// ErrServerClosed while shutting down and errTooManyStartups past
// Config.MaxStartups.
func (s *Server) addStarting(c net.Conn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return ErrServerClosed
	}
	if s.cfg.MaxStartups > 0 && len(s.starting) >= s.cfg.MaxStartups {
		return errTooManyStartups
	}
	s.starting[c] = struct{}{}
	return nil
}

// Starting is the number of connections not yet past startup.
func (s *Server) Starting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.starting)
}

func (s *Server) removeStarting(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.starting, c)
}
