package sqlfront

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlstate"
)

// startupTimeout bounds how long a client may take to start up and authenticate.
const startupTimeout = time.Minute

// errCanceled ends a connection that only carried a CancelRequest.
var errCanceled = errors.New("cancel request handled")

// startup is the connection before the session: it negotiates TLS, reads
// the StartupMessage and authenticates.
type startup struct {
	srv    *Server
	conn   net.Conn
	be     *pgproto3.Backend
	w      *writer
	params map[string]string
}

func (c *startup) send(m pgproto3.BackendMessage) { c.w.send(m) }
func (c *startup) flush() error                   { return c.w.flush() }

func (c *startup) reset(conn net.Conn) {
	c.conn = conn
	c.be = pgproto3.NewBackend(conn, conn)
	c.be.SetMaxBodyLen(c.srv.cfg.MaxMessageSize)
	c.w = newWriter(conn)
}

// run performs the startup phase. On success the caller owns c.conn, which
// may now be a TLS connection.
func (c *startup) run() error {
	c.conn.SetDeadline(time.Now().Add(startupTimeout))
	defer c.conn.SetDeadline(time.Time{})
	for {
		msg, err := c.be.ReceiveStartupMessage()
		if err != nil {
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
			c.srv.cancel(cancelKey{pid: m.ProcessID, secret: cancelSecret(m.SecretKey)})
			return errCanceled
		case *pgproto3.StartupMessage:
			return c.startupMessage(m)
		}
	}
}

// cancelSecret reads the 4-byte secret of protocol 3.0.
func cancelSecret(b []byte) uint32 {
	if len(b) != 4 {
		return 0
	}
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func (c *startup) negotiateTLS() error {
	if c.srv.cfg.TLS == nil {
		_, err := c.conn.Write([]byte{'N'})
		return err
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
	if c.params["user"] == "" {
		return c.fatal(sqlstate.New(sqlstate.InvalidAuthorization, "no PostgreSQL user name specified in startup packet"))
	}
	if creds := c.srv.cfg.Credentials; creds != nil {
		ok, err := c.authenticateSCRAM(creds)
		if err != nil {
			return c.fatal(&sqlstate.Error{Code: sqlstate.ProtocolViolation, Message: err.Error()})
		}
		if !ok || c.params["user"] != creds.User {
			return c.fatal(sqlstate.New(sqlstate.InvalidPassword,
				"password authentication failed for user %q", c.params["user"]))
		}
	}
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
