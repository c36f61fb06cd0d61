package sqlfront_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

// rawDeadline bounds every read and write of a raw client, so that a server
// that stops answering fails the test instead of hanging it.
const rawDeadline = 5 * time.Second

// rawClient drives one connection by hand, message by message or byte by byte.
type rawClient struct {
	t    testing.TB
	conn net.Conn
	fe   *pgproto3.Frontend
}

func dialRaw(t testing.TB, addr string) *rawClient {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, rawDeadline)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawClient{t: t, conn: conn, fe: pgproto3.NewFrontend(conn, conn)}
}

// write sends raw bytes. The server may close the connection before it has
// read them all, so the error is returned, not reported.
func (c *rawClient) write(b []byte) error {
	c.conn.SetWriteDeadline(time.Now().Add(rawDeadline))
	_, err := c.conn.Write(b)
	return err
}

// send encodes and flushes messages.
func (c *rawClient) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	c.conn.SetWriteDeadline(time.Now().Add(rawDeadline))
	if err := c.fe.Flush(); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// closeWrite half-closes the connection: the server reads EOF after the
// bytes already sent.
func (c *rawClient) closeWrite() {
	if tc, ok := c.conn.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
}

// startup sends a StartupMessage for user mallard and reads until ReadyForQuery.
func (c *rawClient) startup() {
	c.t.Helper()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "mallard", "database": "mallard"}})
	if got := c.untilReady(); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") {
		c.t.Fatalf("startup: %v", got)
	}
}

// untilReady reads messages through the next ReadyForQuery and renders
// them with describe. A read error ends the list with "error: ...".
func (c *rawClient) untilReady() []string {
	var got []string
	for {
		c.conn.SetReadDeadline(time.Now().Add(rawDeadline))
		msg, err := c.fe.Receive()
		if err != nil {
			return append(got, "error: "+err.Error())
		}
		got = append(got, describe(msg))
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			return got
		}
	}
}

// ending is how a server ended a connection: the errors it sent first and
// whether it closed the connection (rather than letting the deadline pass).
type ending struct {
	errs   []pgproto3.ErrorResponse
	other  []string
	closed bool
}

// untilClosed reads until the server closes the connection or rawDeadline passes.
func (c *rawClient) untilClosed() ending {
	var e ending
	deadline := time.Now().Add(rawDeadline)
	for {
		c.conn.SetReadDeadline(deadline)
		msg, err := c.fe.Receive()
		if err != nil {
			e.closed = !isTimeout(err)
			return e
		}
		if er, ok := msg.(*pgproto3.ErrorResponse); ok {
			e.errs = append(e.errs, *er)
		} else {
			e.other = append(e.other, describe(msg))
		}
	}
}

// describe renders a backend message for comparison in tests.
func describe(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.ErrorResponse:
		return fmt.Sprintf("ErrorResponse %s %s", m.Severity, m.Code)
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery " + string(m.TxStatus)
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(m.CommandTag)
	case *pgproto3.DataRow:
		vals := make([]string, len(m.Values))
		for i, v := range m.Values {
			vals[i] = "NULL"
			if v != nil {
				vals[i] = fmt.Sprintf("%q", v)
			}
		}
		return "DataRow " + strings.Join(vals, " ")
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", msg), "*pgproto3.")
}

// selectOne is what Query "SELECT 1" answers on a healthy idle connection.
var selectOne = []string{"RowDescription", `DataRow "1"`, "CommandComplete SELECT 1", "ReadyForQuery I"}

// assertSelectOne runs SELECT 1 on c and checks the answer.
func (c *rawClient) assertSelectOne() {
	c.t.Helper()
	c.send(&pgproto3.Query{String: "SELECT 1"})
	if got := c.untilReady(); strings.Join(got, "\n") != strings.Join(selectOne, "\n") {
		c.t.Fatalf("SELECT 1 on the same connection:\n%s", strings.Join(got, "\n"))
	}
}

// assertServes checks that a fresh pgx connection to addr runs SELECT 1.
func assertServes(t testing.TB, addr string) {
	t.Helper()
	assertServesConn(t, connString(addr))
}

// assertServesConn checks that a fresh pgx connection with connStr runs SELECT 1.
func assertServesConn(t testing.TB, connStr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connStr)
	if err != nil {
		t.Fatalf("server no longer accepts connections: %v", err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("SELECT 1 on a fresh connection: %d, %v", n, err)
	}
}

// waitSessions polls until srv has want sessions, failing after 10 s.
func waitSessions(t testing.TB, srv *sqlfront.Server, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for srv.Sessions() != want {
		if time.Now().After(deadline) {
			t.Fatalf("server has %d sessions after 10 s, want %d", srv.Sessions(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// packet frames a startup-phase packet: a length that counts itself, then body.
func packet(body ...[]byte) []byte {
	n := 4
	for _, b := range body {
		n += len(b)
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(n))
	for _, b := range body {
		out = append(out, b...)
	}
	return out
}

// startupBody is a StartupMessage body: version, then NUL-terminated name
// and value strings, then the final NUL.
func startupBody(major, minor uint16, params ...string) []byte {
	b := binary.BigEndian.AppendUint16(nil, major)
	b = binary.BigEndian.AppendUint16(b, minor)
	for _, p := range params {
		b = append(append(b, p...), 0)
	}
	return append(b, 0)
}

// u32 is a big-endian uint32, for hand-built packets.
func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

// message frames a regular message: type byte, then a length that counts
// itself but not the type.
func message(typ byte, body []byte) []byte {
	return append(append([]byte{typ}, u32(uint32(4+len(body)))...), body...)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// receive reads one message, failing the test on a read error.
func (c *rawClient) receive() pgproto3.BackendMessage {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(rawDeadline))
	msg, err := c.fe.Receive()
	if err != nil {
		c.t.Fatalf("receive: %v", err)
	}
	return msg
}

// passwordConnString is connString for user with password and sslmode.
func passwordConnString(addr, user, password, sslmode string) string {
	return connString(addr) + " user=" + user + " password=" + password + " sslmode=" + sslmode
}
