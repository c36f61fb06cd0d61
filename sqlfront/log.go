package sqlfront

import (
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlstate"
)

// logTextLimit is the most bytes of a statement's text a log line holds.
const logTextLimit = 1000

// logText is a statement's text as the log shows it: cut at logTextLimit
// bytes, on a character boundary, with the cut marked.
func logText(q string) string {
	if len(q) <= logTextLimit {
		return q
	}
	cut := logTextLimit
	for cut > 0 && !utf8.RuneStart(q[cut]) {
		cut--
	}
	return q[:cut] + "…"
}

// milliseconds is d in milliseconds, to the microsecond, as Postgres logs durations.
func milliseconds(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// logStartupFailure records a connection that ended before its session
// began: a failed login as a warning, with the failures in a row it made
// and its delay, anything else at debug level.
func (s *Server) logStartupFailure(c net.Conn, st *startup, err error) {
	var se *sqlstate.Error
	user := st.params["user"]
	switch {
	case errors.As(err, &se) && strings.HasPrefix(string(se.Code), "28"):
		s.log.Warn("authentication failed", "client", c.RemoteAddr().String(), "user", user, "via", "wire", "sqlstate", string(se.Code),
			"error", se.Message, "failures", st.failures, "delay", st.delay.String())
	case errors.Is(err, errStartupTimeout):
		s.log.Warn("startup timed out: connection closed", "client", c.RemoteAddr().String(), "user", user,
			"authentication_timeout", s.cfg.AuthenticationTimeout.String())
	case !errors.Is(err, errCanceled):
		s.log.Debug("startup failed", "client", c.RemoteAddr().String(), "err", err)
	}
}

// errStartupTimeout ends a connection whose startup took longer than
// Config.AuthenticationTimeout.
var errStartupTimeout = errors.New("startup timed out")

// refuseStartup closes a connection addStarting refused: at once while
// shutting down; past MaxStartups with a 53300 the client may read, and
// a warning.
func (s *Server) refuseStartup(c net.Conn, err error) {
	if !errors.Is(err, errTooManyStartups) {
		return
	}
	s.log.Warn("connection refused: too many connections in startup", "client", c.RemoteAddr().String(), "max_startups", s.cfg.MaxStartups)
	e := &sqlstate.Error{Code: sqlstate.TooManyConnections, Severity: "FATAL", Message: "sorry, too many clients already",
		Detail: fmt.Sprintf("%d connections are starting up (authenticating) at once, the most the server takes.", s.cfg.MaxStartups)}
	c.SetWriteDeadline(time.Now().Add(time.Second))
	w := newWriter(c)
	w.send(errorResponse(e))
	w.flush()
}

// setupFailed logs, as an error, that an authenticated client's session
// could not be set up (every client's will fail alike until an operator
// acts), and returns what the client is told.
func (s *Server) setupFailed(c net.Conn, user string, err error) *sqlstate.Error {
	s.log.Error("session set-up failed", "client", c.RemoteAddr().String(), "user", user, "err", err)
	return sqlstate.From(s.startupFailed(err))
}

// sessionStarted logs a session's start, as Postgres' log_connections does, and counts it.
func (s *session) sessionStarted() {
	if o := s.srv.cfg.Observer; o != nil {
		o.SessionStarted()
	}
	s.log.Info("connection authorized", "database", s.startup["database"],
		"application_name", s.startup["application_name"], "read_only", s.readOnly, "tls", s.tls)
}

// sessionEnded logs a session's end, as Postgres' log_disconnections
// does, with the bytes it carried each way.
func (s *session) sessionEnded() {
	if o := s.srv.cfg.Observer; o != nil {
		o.SessionEnded(s.counted.read.Load(), s.counted.written.Load())
	}
	s.log.Info("disconnection", "application_name", s.params.get("application_name"),
		"duration_ms", milliseconds(time.Since(s.started)), "statements", s.requests,
		"bytes_received", s.counted.read.Load(), "bytes_sent", s.counted.written.Load())
}

// logFailure records a statement that failed: its SQLSTATE, the message
// and the statement's text. Internal errors are logged as errors, the
// rest as warnings.
func (s *session) logFailure(e *sqlstate.Error) {
	level := slog.LevelWarn
	if e.Code == sqlstate.InternalError {
		level = slog.LevelError
	}
	s.act.mu.Lock()
	query := s.act.query
	s.act.mu.Unlock()
	if o := s.srv.cfg.Observer; o != nil {
		o.StatementFailed(e.Code)
	}
	attrs := []any{"sqlstate", string(e.Code), "error", e.Message, "statement", logText(query)}
	if e.Code == sqlstate.InternalError && e.Hint != "" {
		attrs = append(attrs, "hint", e.Hint) // DuckDB's stack trace: kept here, cut from the client's copy (see clientSafe)
	}
	s.log.Log(s.ctx, level, "statement failed", attrs...)
}

// statementEnded counts a request that ended with ReadyForQuery, in the
// statement statistics if it succeeded, and logs it if it took at least
// Config.SlowStatement (Postgres' log_min_duration_statement).
// A request that failed or only prepared is not counted in the statistics.
func (s *session) statementEnded(query string, took time.Duration, rows int64, uncounted bool) {
	s.requests++
	if s.srv.stats != nil && !uncounted && query != "" {
		s.srv.stats.Record(s.startup["user"], query, took, rows)
	}
	if o := s.srv.cfg.Observer; o != nil && !uncounted {
		o.StatementEnded(s.act.tag, took, rows)
	}
	if min := s.srv.cfg.SlowStatement; min > 0 && took >= min {
		s.log.Info("duration", "duration_ms", milliseconds(took), "statement", logText(query))
	}
}

// logBind records a Bind's parameters, at debug level only: they may hold
// what the log should not keep (Postgres too logs them only when told to).
func (s *session) logBind(m *pgproto3.Bind, query string) {
	if !s.log.Enabled(s.ctx, slog.LevelDebug) {
		return
	}
	params := make([]string, len(m.Parameters))
	for i, p := range m.Parameters {
		format := int16(0)
		switch len(m.ParameterFormatCodes) {
		case 0:
		case 1:
			format = m.ParameterFormatCodes[0]
		default:
			if i < len(m.ParameterFormatCodes) {
				format = m.ParameterFormatCodes[i]
			}
		}
		switch {
		case p == nil:
			params[i] = "NULL"
		case format == 0:
			params[i] = logText(string(p))
		default:
			params[i] = `\x` + hex.EncodeToString(p[:min(len(p), logTextLimit/2)])
		}
	}
	s.log.Debug("bind", "statement", logText(query), "parameters", params)
}
