package sqlfront_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

// fuzzStatementTimeout bounds each statement a fuzzed input runs, so that
// the server answers well within rawDeadline.
const fuzzStatementTimeout = "1000" // ms

// fuzzEnd follows every input of FuzzMessages. The server ends the client's
// session when it reads the client's EOF, canceling what still runs, so the
// client sends EOF only once the server has answered fuzzEnd's query (or
// fallen silent: see converse). Sync ends an extended-protocol batch and
// ROLLBACK a transaction block, so that the query runs after most inputs.
var fuzzEnd = frames(&pgproto3.Sync{}, &pgproto3.Query{String: "ROLLBACK"},
	&pgproto3.Query{String: "SELECT '" + fuzzEndRow + "'"})

const fuzzEndRow = "end of fuzzed input"

// fuzzIdle is how long converse waits for the server's next message before
// it takes the server for done with the input: one that ends inside a
// message, or leaves the session where fuzzEnd cannot run.
const fuzzIdle = 250 * time.Millisecond

// FuzzMessages sends the fuzzed bytes as what a client sends after a
// successful startup, followed by fuzzEnd, and half-closes the connection
// once the server has answered (see converse). The bytes reach every
// decoder of the session: the simple and extended query messages, Close,
// Flush, Sync, COPY in and out, Terminate, PasswordMessage, FunctionCall and
// unknown types. Whatever they hold:
//   - the server process survives (a crash fails the fuzz run);
//   - no panic is recovered (a FATAL XX000) and every message the server
//     sends is well-formed, with nothing after a FATAL error;
//   - the server closes the connection within rawDeadline of the client's
//     EOF and releases its session;
//   - a connection opened before runs SELECT 1, and so does a new one.
//
// Seeds are built from messages in fuzzMessageSeeds; crashers go to
// testdata/fuzz/FuzzMessages.
func FuzzMessages(f *testing.F) {
	srv, addr := startServerHandle(f, sqlfront.Config{MaxMessageSize: 1 << 20})
	idle := connect(f, addr, pgx.QueryExecModeExec)
	for _, seed := range fuzzMessageSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := dialRaw(t, addr)
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
			Parameters: map[string]string{"user": "mallard", "statement_timeout": fuzzStatementTimeout}})
		if got := c.untilReady(); got[len(got)-1] != "ReadyForQuery I" {
			t.Fatalf("startup: %v", got)
		}
		c.converse(slices.Concat(data, fuzzEnd), isFuzzEnd, func(m pgproto3.BackendMessage) {
			if e, ok := m.(*pgproto3.ErrorResponse); ok && e.Code == "XX000" && e.Severity == "FATAL" {
				t.Fatalf("the session ended with an internal error (a recovered panic): %s", e.Message)
			}
		})
		waitSessions(t, srv, 1)
		ctx, cancel := context.WithTimeout(context.Background(), rawDeadline)
		defer cancel()
		var n int
		if err := idle.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
			t.Fatalf("SELECT 1 on another connection: %d, %v", n, err)
		}
		assertServes(t, addr)
	})
}

// FuzzAuth sends the fuzzed bytes as a client's answer to the server's
// request for SCRAM-SHA-256 (SASLInitialResponse, then SASLResponse), then
// half-closes the connection. The server must not crash, must not log the
// client in, must end the exchange with FATAL 28P01 or 08P01 if it
// answers at all, must close the connection within rawDeadline, and must
// then log in a client with the password. Crashers go to
// testdata/fuzz/FuzzAuth.
func FuzzAuth(f *testing.F) {
	creds, err := sqlfront.NewCredentials("mallard", "s3cret")
	if err != nil {
		f.Fatal(err)
	}
	addr := startServer(f, sqlfront.Config{Credentials: creds, MaxMessageSize: 1 << 16})
	for _, seed := range fuzzAuthSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := dialRaw(t, addr)
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
			Parameters: map[string]string{"user": "mallard"}})
		if m, ok := c.receive().(*pgproto3.AuthenticationSASL); !ok {
			t.Fatalf("got %T, want AuthenticationSASL", m)
		}
		c.converse(data, nil, func(m pgproto3.BackendMessage) {
			switch m := m.(type) {
			case *pgproto3.AuthenticationOk, *pgproto3.ReadyForQuery:
				t.Fatalf("%T: logged in without the password", m)
			case *pgproto3.ErrorResponse:
				if m.Severity != "FATAL" || m.Code != "28P01" && m.Code != "08P01" {
					t.Fatalf("login failed with %s %s %q, want FATAL 28P01 or 08P01", m.Severity, m.Code, m.Message)
				}
			}
		})
		assertServesConn(t, passwordConnString(addr, "mallard", "s3cret", "disable"))
	})
}

// isFuzzEnd reports whether msg is the row of fuzzEnd's query.
func isFuzzEnd(msg pgproto3.BackendMessage) bool {
	row, ok := msg.(*pgproto3.DataRow)
	return ok && len(row.Values) == 1 && string(row.Values[0]) == fuzzEndRow
}

// converse sends data and reads the server's messages until it closes the
// connection, passing each to check. The client half-closes the connection
// (EOF) after the message for which answered is true, after fuzzIdle
// without a message, or after rawDeadline; at once if answered is nil. The
// test fails if the server then keeps the connection open past
// rawDeadline, sends a message the client cannot decode, or sends
// anything after a FATAL error.
func (c *rawClient) converse(data []byte, answered func(pgproto3.BackendMessage) bool, check func(pgproto3.BackendMessage)) {
	c.t.Helper()
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		c.write(data) // the server may close before reading it all
	}()
	c.t.Cleanup(func() { <-wrote })
	open, start := true, time.Now()
	eof := func() {
		<-wrote
		c.closeWrite()
		open = false
		c.conn.SetReadDeadline(time.Now().Add(rawDeadline))
	}
	if answered == nil {
		eof()
	}
	var last []string // the last messages received, for failure messages
	fatal := false
	for {
		if open {
			c.conn.SetReadDeadline(time.Now().Add(min(fuzzIdle, time.Until(start.Add(rawDeadline)))))
		}
		msg, err := c.fe.Receive()
		switch {
		case isTimeout(err) && open:
			eof()
			continue
		case isTimeout(err):
			c.t.Fatalf("server kept the connection open %v after the client's EOF; it last sent %v", rawDeadline, last)
		case closedByPeer(err):
			return
		case err != nil:
			c.t.Fatalf("after %v: malformed message from the server: %v", last, err)
		case fatal:
			c.t.Fatalf("%s after a FATAL error: %v", describe(msg), last)
		}
		last = append(last[max(len(last)-9, 0):], describe(msg))
		check(msg)
		if e, ok := msg.(*pgproto3.ErrorResponse); ok && e.Severity == "FATAL" {
			fatal = true
		}
		if open && answered(msg) {
			eof()
		}
	}
}

// closedByPeer reports whether err is the end of a connection the server
// closed, with FIN, or with RST because it closed with input unread.
func closedByPeer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

// frames encodes frontend messages as a client sends them.
func frames(msgs ...pgproto3.FrontendMessage) []byte {
	var b []byte
	for _, m := range msgs {
		var err error
		if b, err = m.Encode(b); err != nil {
			panic(err)
		}
	}
	return b
}

// fuzzMessageSeeds are conversations after startup that reach each part of
// the session: well-formed ones for every message and protocol path, and
// malformed ones for each way a message can be broken.
func fuzzMessageSeeds() [][]byte {
	q := func(s string) *pgproto3.Query { return &pgproto3.Query{String: s} }
	parse := func(s string) *pgproto3.Parse { return &pgproto3.Parse{Query: s} }
	copyTable := q("CREATE TEMP TABLE c (a INTEGER, b VARCHAR)")
	return [][]byte{
		// Simple query protocol: rows, then Terminate.
		frames(q("SELECT 1"), &pgproto3.Terminate{}),
		// A transaction block with DML, RETURNING and an error in it.
		frames(q("BEGIN; CREATE TEMP TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x') RETURNING a; SELECT * FROM no_such_table"),
			q("SELECT 1"), q("ROLLBACK"), q(""), q("-- only a comment\n;")),
		// Settings, set_config and a cursor.
		frames(q("SET statement_timeout = '2s'; SHOW statement_timeout; SELECT set_config('application_name', 'fuzz', false)"),
			q("BEGIN; DECLARE k CURSOR FOR SELECT * FROM range(5); FETCH 2 FROM k; MOVE 1 IN k; CLOSE k; COMMIT")),
		// Extended protocol, every message, named statement and portal,
		// binary parameter and result.
		frames(&pgproto3.Parse{Name: "s", Query: "SELECT $1::INTEGER + 1, $2::TEXT", ParameterOIDs: []uint32{23, 25}},
			&pgproto3.Describe{ObjectType: 'S', Name: "s"},
			&pgproto3.Bind{DestinationPortal: "p", PreparedStatement: "s", ParameterFormatCodes: []int16{1, 0},
				Parameters: [][]byte{{0, 0, 0, 41}, []byte("x")}, ResultFormatCodes: []int16{1, 0}},
			&pgproto3.Describe{ObjectType: 'P', Name: "p"}, &pgproto3.Execute{Portal: "p"},
			&pgproto3.Close{ObjectType: 'P', Name: "p"}, &pgproto3.Close{ObjectType: 'S', Name: "s"}, &pgproto3.Sync{}),
		// A cursor declared through the extended protocol and described
		// as a portal (psycopg 3's named cursors), a FETCH described as a
		// statement, then CLOSE.
		frames(q("BEGIN"), parse("DECLARE cc CURSOR FOR SELECT * FROM range(7)"), &pgproto3.Bind{}, &pgproto3.Execute{},
			&pgproto3.Sync{}, &pgproto3.Describe{ObjectType: 'P', Name: "cc"}, &pgproto3.Sync{},
			&pgproto3.Parse{Name: "f", Query: "FETCH FORWARD 3 FROM cc"}, &pgproto3.Describe{ObjectType: 'S', Name: "f"},
			&pgproto3.Bind{PreparedStatement: "f"}, &pgproto3.Execute{}, &pgproto3.Sync{}, q("CLOSE cc"), q("COMMIT")),
		// Savepoints: an error rolled back to, and a change that cannot be.
		frames(q("BEGIN; SAVEPOINT a; SELECT * FROM nope"), q("ROLLBACK TO a"),
			q("CREATE TEMP TABLE sv (x INTEGER); SAVEPOINT b; INSERT INTO sv VALUES (1)"), q("ROLLBACK TO SAVEPOINT b"),
			q("RELEASE b"), q("ROLLBACK")),
		// A portal executed in steps, with Flush between.
		frames(parse("SELECT * FROM range(10)"), &pgproto3.Bind{}, &pgproto3.Execute{MaxRows: 3}, &pgproto3.Flush{},
			&pgproto3.Execute{MaxRows: 3}, &pgproto3.Sync{}, q("SELECT 2")),
		// Errors: skipping to Sync, two statements in a Parse, a named
		// parameter (which once crashed DuckDB), and the prefix ~ (which
		// once crashed the planner).
		frames(&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Execute{}, parse("SELECT 1"), &pgproto3.Sync{},
			parse("SELECT 1; SELECT 2"), &pgproto3.Sync{}, parse("SELECT $name::INTEGER"), &pgproto3.Sync{},
			q("SELECT ~ 5, 'abc' ~ 'b'")),
		// COPY FROM STDIN in text format, a row split across CopyData.
		frames(copyTable, q("COPY c FROM STDIN"), &pgproto3.CopyData{Data: []byte("1\tx\n2\t\\N\n3\t")},
			&pgproto3.CopyData{Data: []byte("y\\tz\n\\.\n")}, &pgproto3.CopyDone{}, q("SELECT * FROM c")),
		// COPY FROM STDIN in CSV with options, a quoted newline, no final newline.
		frames(copyTable, q("COPY c (b, a) FROM STDIN WITH (FORMAT csv, HEADER, NULL 'n')"),
			&pgproto3.CopyData{Data: []byte("b,a\n\"x\ny\",1\nn,2")}, &pgproto3.CopyDone{}),
		// COPY FROM STDIN ended by CopyFail, then by a Query (a protocol violation).
		frames(copyTable, q("COPY c FROM STDIN"), &pgproto3.CopyData{Data: []byte("bad\n")},
			&pgproto3.CopyFail{Message: "client gave up"}, q("COPY c FROM STDIN"), q("SELECT 1")),
		// COPY FROM STDIN through the extended protocol.
		frames(copyTable, parse("COPY c FROM STDIN"), &pgproto3.Bind{}, &pgproto3.Execute{},
			&pgproto3.CopyData{Data: []byte("7\tseven\n")}, &pgproto3.CopyDone{}, &pgproto3.Sync{}),
		// COPY TO STDOUT, and copy messages outside COPY (ignored).
		frames(q("COPY (SELECT i, 'a\tb' FROM range(3) t(i)) TO STDOUT WITH (FORMAT csv, HEADER)"),
			&pgproto3.CopyData{Data: []byte("x")}, &pgproto3.CopyDone{}, &pgproto3.CopyFail{Message: "no"}, &pgproto3.Sync{}),
		// Messages a session must refuse: PasswordMessage, FunctionCall, an unknown type.
		frames(&pgproto3.PasswordMessage{Password: "secret"}),
		frames(&pgproto3.FunctionCall{Function: 1, Arguments: [][]byte{{1}}}),
		message('z', nil),
		// Malformed framing: a truncated message, a length too short, a
		// query without its NUL, a Describe of an unknown kind, a Bind
		// that ends early, and a second startup packet.
		[]byte{'Q', 0, 0, 0, 100, 'S', 'E', 'L'},
		[]byte{'Q', 0, 0, 0, 3},
		message('Q', []byte("SELECT 1")),
		message('D', []byte("X\x00")),
		message('B', []byte{0, 0, 0xFF, 0xFF}),
		packet(startupBody(3, 0, "user", "mallard")),
	}
}

// fuzzAuthSeeds are answers to the SCRAM request: well-formed ones that
// fail (a client-first message, then a guessed proof), a wrong mechanism,
// garbage, and messages of the wrong kind.
func fuzzAuthSeeds() [][]byte {
	initial := func(mech, data string) *pgproto3.SASLInitialResponse {
		return &pgproto3.SASLInitialResponse{AuthMechanism: mech, Data: []byte(data)}
	}
	return [][]byte{
		frames(initial("SCRAM-SHA-256", "n,,n=,r=rOprNGfwEbeRWgbNEkqO"),
			&pgproto3.SASLResponse{Data: []byte("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")}),
		frames(initial("SCRAM-SHA-256", "y,,n=mallard,r=abc"), &pgproto3.SASLResponse{Data: []byte("c=eSws,r=abc,p=AAAA")}),
		frames(initial("SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=abc")),
		frames(initial("SCRAM-SHA-256", "")),
		frames(initial("", "\xff\x00")),
		frames(&pgproto3.Query{String: "SELECT 1"}),
		message('p', []byte{0}),
		[]byte{'p', 0, 0, 0, 200},
		frames(&pgproto3.Terminate{}),
	}
}
