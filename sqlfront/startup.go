package sqlfront

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront/wire"
	"github.com/mallard/mallard/sqlstate"
)

// maxAuthMessage caps a message before the client has logged in, as
// Postgres caps an authentication token (PG_MAX_AUTH_TOKEN_LENGTH): a
// client that has not authenticated cannot make the server allocate
// MaxMessageSize for a message it declares but never sends.
const maxAuthMessage = 65535

// errCanceled ends a connection that only carried a CancelRequest.
var errCanceled = errors.New("cancel request handled")

// startup is the connection before the session: it negotiates TLS, reads
// the StartupMessage and authenticates.
type startup struct {
	srv    *Server
	conn   net.Conn
	be     *pgproto3.Backend
	br     *bufio.Reader // everything read from conn goes through br
	src    *swapReader   // what be reads; the session swaps in its read-ahead
	w      *writer
	out    *graceWriter // what w writes to: conn, bounded once a statement is canceled
	params map[string]string
	// readOnly says the client authenticated as Config.Reader.
	readOnly bool
	// failures and delay are those of this connection's failed login, as
	// it was counted (later logins from its address count on).
	failures int
	delay    time.Duration
}

// encrypted reports whether the client negotiated TLS.
func (c *startup) encrypted() bool {
	_, ok := c.conn.(*tls.Conn)
	return ok
}

func (c *startup) send(m pgproto3.BackendMessage) { c.w.send(m) }
func (c *startup) flush() error                   { return c.w.flush() }

func (c *startup) reset(conn net.Conn) {
	c.conn = conn
	c.br = bufio.NewReader(conn)
	c.src = &swapReader{r: c.br}
	c.be = pgproto3.NewBackend(c.src, conn)
	c.be.SetMaxBodyLen(min(maxAuthMessage, c.srv.cfg.MaxMessageSize))
	c.out = &graceWriter{conn: conn}
	c.w = newWriter(c.out)
}

// run performs the startup phase. On success the caller owns c.conn, which
// may now be a TLS connection.
func (c *startup) run() error {
	defer c.conn.SetDeadline(time.Time{})
	for {
		msg, err := wire.ReadStartupPacket(c.br)
		if err != nil {
			var se *sqlstate.Error
			if errors.As(err, &se) {
				return c.fatal(se)
			}
			return c.fatal(&sqlstate.Error{Code: sqlstate.ProtocolViolation,
				Message: fmt.Sprintf("invalid startup packet: %v", err)})
		}
		switch m := msg.(type) {
		case *pgproto3.SSLRequest:
			if err := c.negotiateTLS(); err != nil {
				return err
			}
		case *pgproto3.GSSEncRequest:
			if _, err := c.conn.Write([]byte{'N'}); err != nil {
				return err
			}
		case *pgproto3.CancelRequest:
			c.srv.cancel(cancelKey{pid: m.ProcessID, secret: wire.CancelSecret(m.SecretKey)})
			return errCanceled
		case *pgproto3.StartupMessage:
			return c.startupMessage(m)
		}
	}
}

func (c *startup) negotiateTLS() error {
	if c.srv.cfg.TLS == nil {
		_, err := c.conn.Write([]byte{'N'})
		return err
	}
	if c.br.Buffered() > 0 {
		return c.fatal(sqlstate.New(sqlstate.ProtocolViolation, "received unencrypted data after SSL request"))
	}
	if _, err := c.conn.Write([]byte{'S'}); err != nil {
		return err
	}
	tc := tls.Server(c.conn, c.srv.cfg.TLS)
	if err := tc.Handshake(); err != nil {
		return fmt.Errorf("tls handshake: %w", err)
	}
	c.reset(tc)
	return nil
}

func (c *startup) startupMessage(m *pgproto3.StartupMessage) error {
	if m.ProtocolVersion != pgproto3.ProtocolVersion30 {
		// Mallard speaks 3.0; tell a newer client to downgrade, as Postgres 15 does.
		c.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0})
	}
	c.params = m.Parameters
	if _, encrypted := c.conn.(*tls.Conn); c.srv.cfg.RequireTLS && !encrypted {
		return c.fatal(sqlstate.New(sqlstate.InvalidAuthorization, "no encryption: this server accepts only TLS connections").
			WithHint("Connect with sslmode=require."))
	}
	if c.params["user"] == "" {
		return c.fatal(sqlstate.New(sqlstate.InvalidAuthorization, "no PostgreSQL user name specified in startup packet"))
	}
	if creds := c.srv.cfg.Credentials; creds != nil {
		if r := c.srv.cfg.Reader; r != nil && c.params["user"] == r.User {
			creds, c.readOnly = r, true
		}
		ok, err := c.authenticateSCRAM(creds, c.params["user"] == creds.User)
		if err != nil {
			return c.fatal(&sqlstate.Error{Code: sqlstate.ProtocolViolation, Message: err.Error()})
		}
		if !ok {
			// Bounded by MaxAuthDelay; the connection keeps its MaxStartups place meanwhile.
			c.failures, c.delay = c.srv.throttle.failed(c.conn.RemoteAddr().String())
			time.Sleep(c.delay)
			return c.fatal(sqlstate.New(sqlstate.InvalidPassword,
				"password authentication failed for user %q", c.params["user"]))
		}
		c.srv.throttle.succeeded(c.conn.RemoteAddr().String())
	}
	c.be.SetMaxBodyLen(c.srv.cfg.MaxMessageSize)
	c.send(&pgproto3.AuthenticationOk{})
	return nil
}

// fatal sends err as a FATAL ErrorResponse and returns it.
func (c *startup) fatal(err *sqlstate.Error) error {
	err.Severity = "FATAL"
	c.send(errorResponse(err))
	c.flush()
	return err
}

// swapReader lets the session keep the startup's Backend, and so the bytes
// it has buffered, while changing where further bytes come from.
type swapReader struct{ r io.Reader }

func (s *swapReader) Read(p []byte) (int, error) { return s.r.Read(p) }
