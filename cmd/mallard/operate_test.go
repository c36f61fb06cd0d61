package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallard/mallard/internal/testserver"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// inProcess is mallard serve run in the test's process as main runs it,
// writing its log to logs.
type inProcess struct {
	logs   *testserver.LogBuffer
	cancel context.CancelFunc // stops it the way a signal does
	done   chan struct{}      // closed when Run has returned
	err    error              // Run's error, once done is closed

	once    sync.Once
	stopErr error
}

// serveInProcess runs mallard serve with args in this process; the end of
// the test stops it.
func serveInProcess(t testing.TB, args ...string) *inProcess {
	ctx, cancel := context.WithCancel(context.Background())
	p := &inProcess{logs: &testserver.LogBuffer{}, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.err = Run(ctx, append([]string{"serve"}, args...), p.logs, p.logs)
	}()
	t.Cleanup(func() { p.stop() })
	return p
}

// stop stops the server, waits up to 30 s for Run to return and returns
// its error; called again, it returns the same.
func (p *inProcess) stop() error {
	p.once.Do(func() {
		p.cancel()
		select {
		case <-p.done:
			p.stopErr = p.err
		case <-time.After(30 * time.Second):
			p.stopErr = errors.New("server did not stop")
		}
	})
	return p.stopErr
}

// servedMallard is a server run as main runs it, on a fresh in-memory
// database, at addr.
type servedMallard struct {
	addr string
	*inProcess
}

// serveForTest serves a fresh in-memory database with flags, and returns
// once it listens.
func serveForTest(t testing.TB, flags ...string) *servedMallard {
	t.Helper()
	addr := freePort(t)
	s := &servedMallard{addr: addr, inProcess: serveInProcess(t, append([]string{"--listen", addr, "--db", ":memory:", "--http", ""}, flags...)...)}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.logs.String(), "mallard listening") {
		select {
		case <-s.done:
			t.Fatalf("server ended: %v\n%s", s.err, s.logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", s.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

// connect opens a session as user (password pw, "" for trust) with an
// application_name; notices it receives go to notices, if given.
func (s *servedMallard) connect(t testing.TB, user, pw, app string, notices chan<- string) *pgx.Conn {
	t.Helper()
	host, port, _ := net.SplitHostPort(s.addr)
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s user=%s password=%s dbname=mallard sslmode=disable application_name=%s",
		host, port, user, pw, app))
	if err != nil {
		t.Fatal(err)
	}
	if notices != nil {
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices <- n.Severity + ": " + n.Message }
	}
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// logLines reads a JSON log into one map per line.
func logLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line is not JSON: %v\n%s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// find returns the log lines with message msg whose fields include want.
func find(lines []map[string]any, msg string, want map[string]any) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["msg"] != msg {
			continue
		}
		ok := true
		for k, v := range want {
			if fmt.Sprint(l[k]) != fmt.Sprint(asJSON(v)) {
				ok = false
			}
		}
		if ok {
			out = append(out, l)
		}
	}
	return out
}

// asJSON is v as it reads back from JSON: numbers become float64.
func asJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

// TestOperatorLog reads the JSON log a real server writes while a client
// connects, runs statements (one failing, one with a long text), trains a
// model and leaves: every event is there with its fields, and neither
// password is anywhere.
func TestOperatorLog(t *testing.T) {
	const ownerPW, readerPW = "owner-secret-pw", "reader-secret-pw"
	s := serveForTest(t, "--log-format", "json", "--log-min-duration-statement", "0",
		"--password", ownerPW, "--reader-password", readerPW)
	bg := context.Background()
	conn := s.connect(t, "mallard", ownerPW, "logcheck", nil)
	if _, err := conn.Exec(bg, "SELECT 42"); err != nil {
		t.Fatal(err)
	}
	var param string
	if err := conn.QueryRow(bg, "SELECT $1::text", "param-value-xyz").Scan(&param); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(bg, "SELECT 1/0"); err == nil {
		t.Fatal("1/0 succeeded")
	}
	long := "SELECT no_such_column" + strings.Repeat(" ", 3000) + "FROM range(1)"
	if _, err := conn.Exec(bg, long); err == nil {
		t.Fatal("unknown column succeeded")
	}
	for _, q := range []string{
		"CREATE TABLE ratings AS SELECT u AS user_id, i AS item_id, CAST(1 + (u*i) % 5 AS DOUBLE) AS rating FROM range(40) a(u), range(30) b(i) WHERE (u + i) % 3 = 0",
		"SELECT count(*) FROM train_recommender('ratings', model := 'logged', epochs := 1)",
	} {
		if _, err := conn.Exec(bg, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	pid := conn.PgConn().PID()
	conn.Close(bg)
	host, port, _ := net.SplitHostPort(s.addr)
	if c, err := pgx.Connect(bg, "host="+host+" port="+port+" user=reader password=wrong sslmode=disable"); err == nil {
		c.Close(bg)
		t.Fatal("a wrong password was accepted")
	}
	waitFor(t, s.logs, `"msg":"disconnection"`)
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	log := s.logs.String()
	for _, pw := range []string{ownerPW, readerPW, "wrong"} {
		if strings.Contains(log, pw) {
			t.Errorf("the log holds the password %q", pw)
		}
	}
	if strings.Contains(log, "param-value-xyz") {
		t.Error("the log holds a parameter's value at level info")
	}
	lines := logLines(t, log)
	expect := func(msg string, want map[string]any) map[string]any {
		t.Helper()
		got := find(lines, msg, want)
		if len(got) == 0 {
			t.Fatalf("no %q line with %v in the log:\n%s", msg, want, log)
		}
		return got[0]
	}
	started := expect("mallard listening", map[string]any{"max_connections": 100, "reader": true, "auth": "scram-sha-256"})
	if started["log_min_duration_statement"] == nil {
		t.Errorf("start-up line lacks log_min_duration_statement: %v", started)
	}
	who := map[string]any{"pid": pid, "user": "mallard"}
	authorized := expect("connection authorized", map[string]any{"pid": pid, "user": "mallard", "application_name": "logcheck", "database": "mallard"})
	if !strings.HasPrefix(fmt.Sprint(authorized["client"]), "127.0.0.1:") {
		t.Errorf("client = %v, want 127.0.0.1:port", authorized["client"])
	}
	ended := expect("disconnection", who)
	for _, k := range []string{"bytes_received", "bytes_sent", "statements"} {
		if n, _ := ended[k].(float64); n <= 0 {
			t.Errorf("disconnection %s = %v, want > 0", k, ended[k])
		}
	}
	if ended["duration_ms"] == nil {
		t.Error("disconnection has no duration")
	}
	expect("statement failed", map[string]any{"pid": pid, "sqlstate": "22012", "statement": "SELECT 1/0", "level": "WARN"})
	cut := expect("statement failed", map[string]any{"pid": pid, "sqlstate": "42703"})
	if text := fmt.Sprint(cut["statement"]); len(text) > 1010 || !strings.HasSuffix(text, "…") || !strings.HasPrefix(text, "SELECT no_such_column") {
		t.Errorf("long statement logged as %d bytes %.40q..., want it cut at 1000 and marked", len(text), text)
	}
	expect("duration", map[string]any{"pid": pid, "statement": "SELECT 42"})
	expect("authentication failed", map[string]any{"user": "reader", "sqlstate": "28P01"})
	queued := expect("training run queued", map[string]any{"model": "logged", "kind": "recommender"})
	run := map[string]any{"run_id": queued["run_id"], "model": "logged"}
	expect("training run started", run)
	expect("training run ended", map[string]any{"run_id": queued["run_id"], "model": "logged", "status": "succeeded"})
	expect("mallard stopped", nil)
}

// waitFor waits until the log holds text.
func waitFor(t *testing.T, logs *testserver.LogBuffer, text string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(logs.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("log never held %s:\n%s", text, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestOperatorLogText checks the default format, Go's text handler, and
// that -log-min-duration-statement leaves fast statements out.
func TestOperatorLogText(t *testing.T) {
	s := serveForTest(t, "--log-min-duration-statement", "1h")
	conn := s.connect(t, "mallard", "", "textcheck", nil)
	if _, err := conn.Exec(context.Background(), "SELECT 'quick'"); err != nil {
		t.Fatal(err)
	}
	conn.Close(context.Background())
	waitFor(t, s.logs, "msg=disconnection")
	log := s.logs.String()
	if !strings.Contains(log, `msg="connection authorized"`) || !strings.Contains(log, "application_name=textcheck") {
		t.Errorf("no text connection line:\n%s", log)
	}
	if strings.Contains(log, "quick") {
		t.Errorf("a statement faster than 1h was logged:\n%s", log)
	}
}

func TestLogMinDurationStatement(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"-1", -1, false}, {"0", 0, false}, {"250", 250 * time.Millisecond, false}, {"2s", 2 * time.Second, false},
		{"1500us", 1500 * time.Microsecond, false}, {"-2", 0, true}, {"-5s", 0, true}, {"soon", 0, true}, {"", 0, true},
	}
	for _, tt := range tests {
		got, err := parseMinDuration(tt.in)
		if (err != nil) != tt.wantErr || err == nil && got != tt.want {
			t.Errorf("parseMinDuration(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
	if _, err := parseConfig([]string{"--log-min-duration-statement", "-3"}, &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "log-min-duration-statement") {
		t.Errorf("-3 accepted: %v", err)
	}
	t.Setenv("MALLARD_LOG_MIN_DURATION_STATEMENT", "never")
	if _, err := parseConfig(nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "MALLARD_LOG_MIN_DURATION_STATEMENT") {
		t.Errorf("an unparsable environment value was accepted: %v", err)
	}
	t.Setenv("MALLARD_LOG_MIN_DURATION_STATEMENT", "100")
	cfg, err := parseConfig([]string{"--log-format", "json"}, &bytes.Buffer{})
	if err != nil || cfg.LogMinDuration != 100*time.Millisecond || cfg.slowStatement() != 100*time.Millisecond {
		t.Errorf("cfg = %v, %v", cfg.LogMinDuration, err)
	}
	if _, err := parseConfig([]string{"--log-format", "xml"}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "-log-format") {
		t.Errorf("-log-format xml accepted: %v", err)
	}
}

// TestDebugLogsParameters checks that --log-level debug logs a Bind's
// parameters with its statement.
func TestDebugLogsParameters(t *testing.T) {
	s := serveForTest(t, "--log-level", "debug")
	conn := s.connect(t, "mallard", "", "debug", nil)
	var v *string
	if err := conn.QueryRow(context.Background(), "SELECT $1::text || $2::text", "visible-param", nil).Scan(&v); err != nil || v != nil {
		t.Fatalf("text || NULL = %v, %v; want NULL", v, err)
	}
	waitFor(t, s.logs, `msg=bind`)
	if !strings.Contains(s.logs.String(), `statement="SELECT $1::text || $2::text" parameters="[visible-param NULL]"`) {
		t.Errorf("no bind line with the parameters:\n%s", s.logs.String())
	}
}
