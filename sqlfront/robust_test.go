//go:build duckdb_arrow

package sqlfront_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

// TestBadStartupEndsOnlyThatConnection sends malformed startup packets on
// fresh connections. Each must end its own connection, with the
// ErrorResponse Postgres would send where the server can answer, and
// leave the server serving others.
func TestBadStartupEndsOnlyThatConnection(t *testing.T) {
	addr := startServer(t, sqlfront.Config{})
	tests := []struct {
		name string
		send []byte
		// halfClose closes the client's side after sending, so the server
		// reads EOF instead of waiting for the rest.
		halfClose bool
		// wantCode is the SQLSTATE of the FATAL error expected before the
		// close; empty asserts only the close.
		wantCode string
	}{
		{name: "length 0", send: u32(0), wantCode: "08P01"},
		{name: "length 7", send: []byte{0, 0, 0, 7, 0, 3, 0}, wantCode: "08P01"},
		{name: "negative length", send: u32(0xFFFFFFF0), wantCode: "08P01"},
		{name: "length over 10000", send: append(u32(10009), startupBody(3, 0, "user", "mallard")...), wantCode: "08P01"},
		{name: "truncated then closed", send: append(u32(100), startupBody(3, 0, "user", "mallard")[:10]...), halfClose: true},
		{name: "only a length then closed", send: u32(100), halfClose: true},
		{name: "protocol 2.0", send: packet(startupBody(2, 0, "user", "mallard")), wantCode: "0A000"},
		{name: "protocol 4.0", send: packet(startupBody(4, 0, "user", "mallard")), wantCode: "0A000"},
		{name: "no user", send: packet(startupBody(3, 0, "database", "mallard")), wantCode: "28000"},
		{name: "empty user", send: packet(startupBody(3, 0, "user", "")), wantCode: "28000"},
		{name: "value not NUL-terminated", send: packet(u32(3<<16), []byte("user\x00mallard")), wantCode: "08P01"},
		{name: "name not NUL-terminated", send: packet(u32(3<<16), []byte("user")), wantCode: "08P01"},
		{name: "no final NUL", send: packet(u32(3<<16), []byte("user\x00mallard\x00")), wantCode: "08P01"},
		{name: "cancel request too short", send: packet(u32(80877102), u32(1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, addr)
			if err := c.write(tt.send); err != nil {
				t.Fatal(err)
			}
			if tt.halfClose {
				c.closeWrite()
			}
			e := c.untilClosed()
			assertFatal(t, e, tt.wantCode, "")
			assertServes(t, addr)
		})
	}
}

// assertFatal checks that the server closed the connection and, if
// wantCode is set, that it first sent a FATAL ErrorResponse with that code
// and with a message containing wantText.
func assertFatal(t *testing.T, e ending, wantCode, wantText string) {
	t.Helper()
	if !e.closed {
		t.Errorf("server did not close the connection within %v (errors %+v, other %v)", rawDeadline, e.errs, e.other)
	}
	if wantCode == "" {
		return
	}
	if len(e.errs) == 0 {
		t.Fatalf("no ErrorResponse before close, want %s (other messages %v)", wantCode, e.other)
	}
	got := e.errs[len(e.errs)-1]
	if got.Code != wantCode || got.Severity != "FATAL" {
		t.Errorf("got %s %s %q, want FATAL %s", got.Severity, got.Code, got.Message, wantCode)
	}
	if !strings.Contains(got.Message, wantText) {
		t.Errorf("message %q does not mention %q", got.Message, wantText)
	}
}

// TestStartupMinorVersionNegotiation: a client asking for a newer 3.x
// protocol is told to use 3.0 and then served, as Postgres does.
func TestStartupMinorVersionNegotiation(t *testing.T) {
	addr := startServer(t, sqlfront.Config{})
	for _, minor := range []uint16{1, 2, 9999} {
		t.Run(fmt.Sprintf("3.%d", minor), func(t *testing.T) {
			c := dialRaw(t, addr)
			if err := c.write(packet(startupBody(3, minor, "user", "mallard"))); err != nil {
				t.Fatal(err)
			}
			got := c.untilReady()
			if got[0] != "NegotiateProtocolVersion" || got[len(got)-1] != "ReadyForQuery I" {
				t.Fatalf("protocol 3.%d: got %v, want NegotiateProtocolVersion ... ReadyForQuery", minor, got)
			}
			c.assertSelectOne()
		})
	}
}

// TestBadMessageEndsOnlyThatConnection sends malformed messages after a
// successful startup. Each ends its connection (with a FATAL 08P01 where the
// server can answer), the session is released, and others are still served.
func TestBadMessageEndsOnlyThatConnection(t *testing.T) {
	srv, addr := startServerHandle(t, sqlfront.Config{MaxMessageSize: 1 << 16})
	big := append(bytes.Repeat([]byte("x"), 100<<10), 0)
	tests := []struct {
		name      string
		send      []byte
		halfClose bool
		wantCode  string
		wantText  string
	}{
		{name: "unknown type z", send: message('z', nil), wantCode: "08P01"},
		{name: "length 3", send: []byte{'Q', 0, 0, 0, 3}, wantCode: "08P01"},
		{name: "negative length", send: []byte{'Q', 0xFF, 0xFF, 0xFF, 0xFE}, wantCode: "08P01"},
		{name: "over the size limit", send: message('Q', big), wantCode: "08P01", wantText: "65536"},
		{name: "truncated then closed", send: []byte{'Q', 0, 0, 0, 100, 'S', 'E', 'L'}, halfClose: true},
		{name: "query not NUL-terminated", send: message('Q', []byte("SELECT 1")), wantCode: "08P01"},
		{name: "bind body truncated", send: message('B', []byte{0}), wantCode: "08P01"},
		{name: "password message", send: message('p', []byte("secret\x00")), wantCode: "08P01"},
		{name: "second startup packet", send: packet(startupBody(3, 0, "user", "mallard")), wantCode: "08P01"},
		{name: "terminate", send: message('X', nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, addr)
			c.startup()
			// The server may stop reading a message it rejects; its error
			// must still arrive, so the write runs beside the read.
			wrote := make(chan struct{})
			go func() {
				defer close(wrote)
				c.write(tt.send)
				if tt.halfClose {
					c.closeWrite()
				}
			}()
			e := c.untilClosed()
			<-wrote
			assertFatal(t, e, tt.wantCode, tt.wantText)
			waitSessions(t, srv, 0)
			assertServes(t, addr)
		})
	}
}

// TestStatementErrorsKeepConnection: errors in extended-protocol messages
// are ERRORs, not FATAL. The server skips to Sync, answers ReadyForQuery,
// and the same connection then runs SELECT 1.
func TestStatementErrorsKeepConnection(t *testing.T) {
	addr := startServer(t, sqlfront.Config{})
	parse := func(q string) *pgproto3.Parse { return &pgproto3.Parse{Query: q} }
	tests := []struct {
		name string
		send []pgproto3.FrontendMessage
		want []string
	}{
		{
			name: "bind of a missing statement",
			send: []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Execute{}},
			want: []string{"ErrorResponse ERROR 26000"},
		},
		{
			name: "bind with too few parameters",
			send: []pgproto3.FrontendMessage{parse("SELECT $1::INTEGER, $2::INTEGER"),
				&pgproto3.Bind{Parameters: [][]byte{[]byte("1")}}, &pgproto3.Execute{}},
			want: []string{"ParseComplete", "ErrorResponse ERROR 08P01"},
		},
		{
			name: "bind with too many parameters",
			send: []pgproto3.FrontendMessage{parse("SELECT $1::INTEGER"),
				&pgproto3.Bind{Parameters: [][]byte{[]byte("1"), []byte("2")}}, &pgproto3.Execute{}},
			want: []string{"ParseComplete", "ErrorResponse ERROR 08P01"},
		},
		{
			name: "binary int4 of 3 bytes",
			send: []pgproto3.FrontendMessage{parse("SELECT $1::INTEGER"),
				&pgproto3.Bind{ParameterFormatCodes: []int16{1}, Parameters: [][]byte{{0, 0, 1}}}, &pgproto3.Execute{}},
			want: []string{"ParseComplete", "ErrorResponse ERROR 22P03"},
		},
		{
			name: "unknown parameter format code",
			send: []pgproto3.FrontendMessage{parse("SELECT $1::INTEGER"),
				&pgproto3.Bind{ParameterFormatCodes: []int16{7}, Parameters: [][]byte{[]byte("1")}}, &pgproto3.Execute{}},
			want: []string{"ParseComplete", "ErrorResponse ERROR 08P01"},
		},
		{
			name: "more parameter formats than parameters",
			send: []pgproto3.FrontendMessage{parse("SELECT $1::INTEGER"),
				&pgproto3.Bind{ParameterFormatCodes: []int16{0, 0}, Parameters: [][]byte{[]byte("1")}}, &pgproto3.Execute{}},
			want: []string{"ParseComplete", "ErrorResponse ERROR 08P01"},
		},
		{
			name: "more result formats than columns",
			send: []pgproto3.FrontendMessage{parse("SELECT 1"),
				&pgproto3.Bind{ResultFormatCodes: []int16{0, 1, 0}}, &pgproto3.Execute{}},
			want: []string{"ParseComplete", "ErrorResponse ERROR 08P01"},
		},
		{
			name: "unknown result format code",
			send: []pgproto3.FrontendMessage{parse("SELECT 1"),
				&pgproto3.Bind{ResultFormatCodes: []int16{5}}, &pgproto3.Execute{}},
			want: []string{"ParseComplete", "ErrorResponse ERROR 08P01"},
		},
		{
			name: "execute of a missing portal",
			send: []pgproto3.FrontendMessage{&pgproto3.Execute{Portal: "nope"}},
			want: []string{"ErrorResponse ERROR 34000"},
		},
		{
			name: "describe of a missing statement",
			send: []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'S', Name: "nope"}},
			want: []string{"ErrorResponse ERROR 26000"},
		},
		{
			name: "describe of a missing portal",
			send: []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'P', Name: "nope"}},
			want: []string{"ErrorResponse ERROR 34000"},
		},
		{
			name: "describe of an unknown kind of object",
			send: []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'X', Name: "nope"}},
			want: []string{"ErrorResponse ERROR 08P01"},
		},
		{
			name: "close of an unknown kind of object",
			send: []pgproto3.FrontendMessage{&pgproto3.Close{ObjectType: 'X', Name: "nope"}},
			want: []string{"ErrorResponse ERROR 08P01"},
		},
		{
			name: "parse of two statements",
			send: []pgproto3.FrontendMessage{parse("SELECT 1; SELECT 2")},
			want: []string{"ErrorResponse ERROR 42601"},
		},
		{
			name: "messages after an error are skipped until Sync",
			send: []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "nope"},
				parse("SELECT 1"), &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Query{String: "SELECT 2"}},
			want: []string{"ErrorResponse ERROR 26000"},
		},
		{
			name: "copy messages outside COPY are ignored",
			send: []pgproto3.FrontendMessage{&pgproto3.CopyData{Data: []byte("1\t2\n")},
				&pgproto3.CopyDone{}, &pgproto3.CopyFail{Message: "no"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, addr)
			c.startup()
			c.send(append(tt.send, &pgproto3.Sync{})...)
			want := append(tt.want, "ReadyForQuery I")
			if got := c.untilReady(); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			c.assertSelectOne()
		})
	}
}

// TestPipelinedStartup: messages sent in the same write as the
// StartupMessage, before ReadyForQuery, are served like any others.
func TestPipelinedStartup(t *testing.T) {
	addr := startServer(t, sqlfront.Config{})
	c := dialRaw(t, addr)
	c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "mallard"}})
	c.send(&pgproto3.Query{String: "SELECT 1"})
	if got := c.untilReady(); got[len(got)-1] != "ReadyForQuery I" {
		t.Fatalf("startup: %v", got)
	}
	if got := c.untilReady(); strings.Join(got, "\n") != strings.Join(selectOne, "\n") {
		t.Fatalf("pipelined SELECT 1:\n%s", strings.Join(got, "\n"))
	}
}
