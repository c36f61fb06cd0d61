package sqlfront

import (
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront/statements"
	"github.com/mallard/mallard/sqlstate"
)

// Observer is told what the server's sessions do, for metrics. Session
// goroutines call it concurrently; each call must be cheap.
type Observer interface {
	// SessionStarted and SessionEnded count a client session in and out;
	// at its end, with the bytes it received and sent.
	SessionStarted()
	SessionEnded(received, sent int64)
	// StatementEnded counts a request that ran statements and succeeded:
	// the command tag of its last statement (SELECT, INSERT, COPY...),
	// how long it took and the rows it returned or changed.
	StatementEnded(tag string, took time.Duration, rows int64)
	// StatementFailed counts a statement that failed with code.
	StatementFailed(code sqlstate.Code)
}

// Backend is what pg_stat_activity shows of one client session: Postgres'
// columns, with zero times standing for NULL.
type Backend struct {
	PID             int32
	User            string
	ApplicationName string
	ClientAddr      string // "" for a client not on TCP
	ClientPort      int32  // -1 for a client not on TCP
	BackendStart    time.Time
	XactStart       time.Time
	QueryStart      time.Time
	StateChange     time.Time
	// State is active, idle, idle in transaction or idle in transaction (aborted).
	State string
	// Query is the statement running, or the last one run when State is not active.
	Query string
	// Conn is the id of the session's engine connection, which its
	// statements pass to Mallard's functions (see Conn.ID).
	Conn uint64
	// ReadOnly says the session's role is the read-only one.
	ReadOnly bool
	// Cursors are the cursors the session has open (pg_cursors).
	Cursors []Cursor
}

// activity is the session's part of pg_stat_activity and of the statement
// log. The session goroutine writes it; Server.Activity reads it from any
// goroutine, under mu.
type activity struct {
	mu          sync.Mutex
	state       string
	query       string
	queryStart  time.Time
	stateChange time.Time
	xactStart   time.Time
	appName     string            // application_name as of the last ReadyForQuery
	cursors     map[string]Cursor // the open cursors, by name

	// Owned by the session goroutine.
	rows       int64             // rows the request returned or changed
	failed     bool              // the request failed
	executed   bool              // the request ran a statement: a Query or an Execute, not only Parse or Bind
	tag        string            // the command tag of the request's last statement
	statements map[string]string // the client's text of each prepared statement, by name
	portals    map[string]string // the client's text of each portal's statement, by name
}

// The states of pg_stat_activity.
const (
	stateActive        = "active"
	stateIdle          = "idle"
	stateIdleInTx      = "idle in transaction"
	stateIdleInAborted = "idle in transaction (aborted)"
)

// busy marks the session active when msg starts work: a Query, or a Parse,
// Bind or Execute of the extended protocol, which stays active until Sync.
func (s *session) busy(msg pgproto3.FrontendMessage) {
	a := &s.act
	var text string
	switch m := msg.(type) {
	case *pgproto3.Query:
		text, a.executed = m.String, true
	case *pgproto3.Parse:
		text = m.Query
		a.statements[m.Name] = m.Query
	case *pgproto3.Bind:
		text = a.statements[m.PreparedStatement]
		a.portals[m.DestinationPortal] = text
		s.logBind(m, text)
	case *pgproto3.Execute:
		text, a.executed = a.portals[m.Portal], true
	case *pgproto3.Close:
		if m.ObjectType == 'S' {
			delete(a.statements, m.Name)
		}
		return
	default:
		return
	}
	now := time.Now()
	a.mu.Lock()
	if a.state != stateActive {
		a.stateChange = now
		if a.xactStart.IsZero() {
			a.xactStart = now
		}
	}
	a.state, a.query, a.queryStart = stateActive, text, now
	a.mu.Unlock()
}

// idle marks the session idle as ReadyForQuery reports it, and logs the
// statement that ended if it took at least Config.SlowStatement.
func (s *session) idle() {
	a := &s.act
	now := time.Now()
	a.mu.Lock()
	wasActive := a.state == stateActive
	a.state = map[byte]string{txIdle: stateIdle, txActive: stateIdleInTx, txFailed: stateIdleInAborted}[s.tx]
	a.stateChange = now
	a.appName = s.params.get("application_name")
	if s.tx == txIdle {
		a.xactStart = time.Time{}
	}
	query, started := a.query, a.queryStart
	a.mu.Unlock()
	if wasActive {
		s.statementEnded(query, now.Sub(started), a.rows, a.failed || !a.executed)
	}
	a.rows, a.failed, a.executed, a.tag = 0, false, false, ""
}

// completed counts a statement of the request that completed with tag and
// rows, for the statement statistics and the metrics.
func (s *session) completed(tag string, rows int64) {
	s.act.rows += rows
	s.act.tag = tag
}

// backend is the session's row of pg_stat_activity.
func (s *session) backend() Backend {
	b := Backend{PID: int32(s.key.pid), User: s.startup["user"], BackendStart: s.started, ClientPort: -1, Conn: s.db.ID(), ReadOnly: s.readOnly}
	if host, port, err := net.SplitHostPort(s.conn.RemoteAddr().String()); err == nil && s.conn.RemoteAddr().Network() == "tcp" {
		p, _ := strconv.Atoi(port)
		b.ClientAddr, b.ClientPort = host, int32(p)
	}
	s.act.mu.Lock()
	b.State, b.Query, b.QueryStart, b.StateChange, b.XactStart = s.act.state, s.act.query, s.act.queryStart, s.act.stateChange, s.act.xactStart
	b.ApplicationName = s.act.appName
	b.Cursors = s.act.openCursors()
	s.act.mu.Unlock()
	return b
}

// Activity lists the client sessions, in the order they started.
func (s *Server) Activity() []Backend {
	s.mu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	s.mu.Unlock()
	out := make([]Backend, len(sessions))
	for i, sess := range sessions {
		out[i] = sess.backend()
	}
	slices.SortFunc(out, func(a, b Backend) int { return a.BackendStart.Compare(b.BackendStart) })
	return out
}

// Signal cancels the running statement of the session with process id
// pid (pg_cancel_backend), or ends the session (pg_terminate_backend),
// on behalf of the session whose engine connection is by. As in Postgres,
// the owner may signal any session and the read-only role only its own
// role's; a pid that names no session is false with a WARNING to the
// caller. A caller that is no session of this server may signal none.
func (s *Server) Signal(by uint64, pid int64, terminate bool) (bool, error) {
	target, caller := s.findSessions(pid, by)
	verb := map[bool]string{false: "cancel query", true: "terminate backend process"}[terminate]
	if caller == nil {
		return false, sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied to %s", verb).
			WithDetail("Only a client session of this server may signal another.")
	}
	if target == nil {
		caller.notices.warn("PID " + strconv.FormatInt(pid, 10) + " is not a Mallard server process")
		return false, nil
	}
	if caller.readOnly && target.startup["user"] != caller.startup["user"] {
		return false, sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied to %s", verb).
			WithDetail("Only the owner role, or the role of the session being signaled, may %s it.", verb)
	}
	s.log.Info(signalName(terminate), "pid", pid, "user", target.startup["user"], "by_pid", caller.key.pid, "by_user", caller.startup["user"])
	if terminate {
		target.terminate(&sqlstate.Error{Code: sqlstate.AdminShutdown, Severity: "FATAL",
			Message: "terminating connection due to administrator command"})
	} else {
		target.cancelStatement(&sqlstate.Error{Code: sqlstate.QueryCanceled,
			Message: "canceling statement due to user request"})
	}
	return true, nil
}

// signalName names what Signal does, in the log, by the SQL function that does it.
func signalName(terminate bool) string {
	if terminate {
		return "pg_terminate_backend"
	}
	return "pg_cancel_backend"
}

// countingConn counts the bytes a connection carries, TLS included.
type countingConn struct {
	net.Conn
	read, written atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}

// Statements are the statement statistics (pg_stat_statements), most
// total time first; none when Config.StatementStats is 0.
func (s *Server) Statements() []statements.Stat {
	if s.stats == nil {
		return nil
	}
	return s.stats.Snapshot()
}

// ResetStatements forgets the statement statistics.
func (s *Server) ResetStatements() {
	if s.stats != nil {
		s.stats.Reset()
	}
}
