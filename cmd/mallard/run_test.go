package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestConfigValidate(t *testing.T) {
	base := func() Config {
		return Config{Listen: "127.0.0.1:5433", DB: "x.duckdb", LogLevel: "info", TLS: "off", MaxMessageSize: 1 << 20, MaxTrainings: 2,
			MaxConnections: 100}
	}
	tests := []struct {
		name    string
		change  func(*Config)
		wantErr string
	}{
		{"defaults", func(*Config) {}, ""},
		{"query size too small", func(c *Config) { c.QuerySize = 99 }, "-track-activity-query-size 99: want at least 100"},
		{"negative max prepared", func(c *Config) { c.MaxPrepared = -1 }, "-max-prepared-statements -1"},
		{"public without password", func(c *Config) { c.Listen = "0.0.0.0:5433" }, "not a loopback address"},
		{"public with password", func(c *Config) { c.Listen = "0.0.0.0:5433"; c.Password = "p" }, ""},
		{"localhost", func(c *Config) { c.Listen = "localhost:1" }, ""},
		{"ipv6 loopback", func(c *Config) { c.Listen = "[::1]:5433" }, ""},
		{"bad listen", func(c *Config) { c.Listen = "nope" }, "-listen"},
		{"bad level", func(c *Config) { c.LogLevel = "loud" }, "-log-level"},
		{"bad log format", func(c *Config) { c.LogFormat = "xml" }, "-log-format"},
		{"json log", func(c *Config) { c.LogFormat = "json" }, ""},
		{"bad authentication-timeout", func(c *Config) { c.AuthenticationTimeout = -1 }, "-authentication-timeout"},
		{"negative max-startups", func(c *Config) { c.MaxStartups = -1 }, "-max-startups"},
		{"unparsable log-min-duration-statement", func(c *Config) { c.LogMinDuration = invalidDuration }, "-log-min-duration-statement"},
		{"negative stat-statements-max", func(c *Config) { c.StatementStats = -1 }, "-stat-statements-max"},
		{"bad tls", func(c *Config) { c.TLS = "yes" }, "-tls"},
		{"cert without key", func(c *Config) { c.TLSCert = "c.pem" }, "go together"},
		{"tiny messages", func(c *Config) { c.MaxMessageSize = 10 }, "-max-message-size"},
		{"no db", func(c *Config) { c.DB = "" }, "-db"},
		{"no trainings", func(c *Config) { c.MaxTrainings = 0 }, "-max-trainings"},
		{"dashboard off", func(c *Config) { c.HTTP = "" }, ""},
		{"public dashboard without password", func(c *Config) { c.HTTP = "0.0.0.0:8080" }, "-http"},
		{"public dashboard with password", func(c *Config) { c.HTTP = "0.0.0.0:8080"; c.Password = "p" }, ""},
		{"bad dashboard address", func(c *Config) { c.HTTP = "8080" }, "-http"},
		{"require tls without tls", func(c *Config) { c.RequireTLS = true }, "-require-tls"},
		{"require tls", func(c *Config) { c.RequireTLS = true; c.TLS = "self-signed" }, ""},
		{"no connections", func(c *Config) { c.MaxConnections = 0 }, "-max-connections"},
		{"missing data dir", func(c *Config) { c.DataDirs = []string{"/no/such/dir"} }, "-data-dir"},
		{"data dir", func(c *Config) { c.DataDirs = []string{os.TempDir()} }, ""},
		{"reader without owner password", func(c *Config) { c.ReaderUser, c.ReaderPassword = "reader", "r" }, "needs -password"},
		{"reader named as the owner", func(c *Config) { c.User, c.Password, c.ReaderUser, c.ReaderPassword = "mallard", "p", "mallard", "r" }, "-reader-user"},
		{"reader", func(c *Config) { c.User, c.Password, c.ReaderUser, c.ReaderPassword = "mallard", "p", "reader", "r" }, ""},
		{"launcher", func(c *Config) { c.Launcher = "srun -n {ranks} {worker} train-worker --job {job}" }, ""},
		{"launcher without job", func(c *Config) { c.Launcher = "srun -n {ranks} {worker} train-worker" }, "{job}"},
		{"launcher with unknown placeholder", func(c *Config) { c.Launcher = "srun -n {nodes} {worker} train-worker --job {job}" }, "{nodes}"},
		{"launcher with hostfile", func(c *Config) { c.Launcher, c.MPIHostfile = "srun {worker} train-worker --job {job}", "hosts" }, "-mpi-hostfile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.change(&c)
			err := c.Validate()
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Validate() = %v, want error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestEnvironmentSetsDefaults(t *testing.T) {
	t.Setenv("MALLARD_LISTEN", "127.0.0.1:7777")
	t.Setenv("MALLARD_LOG_LEVEL", "debug")
	cfg, err := parseConfig(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:7777" || cfg.LogLevel != "debug" {
		t.Fatalf("cfg = %+v", cfg)
	}
	cfg, err = parseConfig([]string{"--listen", "127.0.0.1:8888"}, &bytes.Buffer{})
	if err != nil || cfg.Listen != "127.0.0.1:8888" {
		t.Fatalf("flag should win over environment: %+v %v", cfg, err)
	}
}

func TestHelpNamesEveryFlag(t *testing.T) {
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"--help"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"-listen", "-db", "-log-level", "-password", "-tls", "-tls-cert", "-tls-key", "-http", "-data-dir", "MALLARD_PASSWORD"} {
		if !strings.Contains(out.String(), f) {
			t.Errorf("help does not mention %s", f)
		}
	}
}

func freePort(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestShutdownCheckpoints runs the server as main does, stops it the way a
// signal does (canceling Run's context), and checks that the client was
// told, a running statement was canceled (Run returns nil only if every
// session ended within the grace period) and the data is in the
// checkpointed file.
func TestShutdownCheckpoints(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "m.duckdb")
	addr, httpAddr := freePort(t), freePort(t)
	srv := serveInProcess(t, "--listen", addr, "--db", dbPath, "--http", httpAddr, "--shutdown-grace", "0")
	conn := connectRetry(t, addr)
	// An open dashboard event stream must not hold shutdown up.
	events, err := http.Get("http://" + httpAddr + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	if _, err := conn.Exec(context.Background(), "CREATE TABLE kept AS SELECT 42 AS v"); err != nil {
		t.Fatal(err)
	}
	busy := connectRetry(t, addr)
	busyErr := make(chan error, 1)
	go func() {
		_, err := busy.Exec(context.Background(), "SELECT count(*) FROM range(10000000000000) a")
		busyErr <- err
	}()
	time.Sleep(200 * time.Millisecond)
	srv.cancel()
	if err := <-busyErr; err == nil {
		t.Error("a running statement survived shutdown")
	}
	if err := srv.stop(); err != nil {
		t.Fatalf("Run: %v\n%s", err, srv.logs.String())
	}
	_, err = conn.Exec(context.Background(), "SELECT 1")
	var pe *pgconn.PgError
	if err == nil || errors.As(err, &pe) && pe.Code != "57P01" {
		t.Fatalf("after shutdown: %v, want the connection closed (57P01)", err)
	}
	if _, err := os.Stat(dbPath + ".wal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WAL left behind (%v): shutdown did not checkpoint", err)
	}
	// The file opens again and holds the data.
	addr2 := freePort(t)
	serveInProcess(t, "--listen", addr2, "--db", dbPath, "--http", "")
	var v int
	if err := connectRetry(t, addr2).QueryRow(context.Background(), "SELECT v FROM kept").Scan(&v); err != nil || v != 42 {
		t.Fatalf("v = %d, %v", v, err)
	}
}

func connectRetry(t *testing.T, addr string) *pgx.Conn {
	host, port, _ := net.SplitHostPort(addr)
	dsn := fmt.Sprintf("host=%s port=%s user=mallard sslmode=disable", host, port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), dsn)
		if err == nil {
			t.Cleanup(func() { conn.Close(context.Background()) })
			return conn
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDashboardAuthAndAddress checks that the dashboard asks for the
// wire side's password, and that an explicit dashboard address that is
// taken stops the server from starting.
func TestDashboardAuthAndAddress(t *testing.T) {
	addr, httpAddr := freePort(t), freePort(t)
	serveInProcess(t, "--listen", addr, "--db", ":memory:", "--http", httpAddr, "--password", "pw", "--reader-password", "rpw")
	var resp *http.Response
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		if resp, err = http.Get("http://" + httpAddr + "/api/models"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a password: status %d, want 401", resp.StatusCode)
	}
	// The read-only role may see the dashboard too, each with its own password.
	for _, tt := range []struct {
		user, password string
		want           int
	}{{"mallard", "nope", 401}, {"mallard", "pw", 200}, {"reader", "rpw", 200}, {"reader", "pw", 401}, {"mallard", "rpw", 401}} {
		req, _ := http.NewRequest("GET", "http://"+httpAddr+"/api/models", nil)
		req.SetBasicAuth(tt.user, tt.password)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s / %s: status %d, want %d", tt.user, tt.password, resp.StatusCode, tt.want)
		}
	}
	// The address is taken now: a second server told to use it must not start.
	err := Run(context.Background(), []string{"serve", "--listen", freePort(t), "--db", ":memory:", "--http", httpAddr}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "dashboard") {
		t.Errorf("second server on a taken dashboard address: %v", err)
	}
}

// TestSandbox checks that client SQL reaches no server file outside
// --data-dir (42501 naming the path), cannot turn that back on, and that
// COPY from and to the client keeps working.
func TestSandbox(t *testing.T) {
	data, outside := t.TempDir(), t.TempDir()
	addr := freePort(t)
	serveInProcess(t, "--listen", addr, "--db", ":memory:", "--http", "", "--data-dir", data)
	conn := connectRetry(t, addr)
	bg := context.Background()
	denied := []struct{ query, path string }{
		{"SELECT * FROM read_csv('/etc/passwd')", "/etc/passwd"},
		{"SELECT * FROM read_text('" + outside + "/x')", outside + "/x"},
		{"COPY (SELECT 1) TO '" + outside + "/out.csv'", outside + "/out.csv"},
		{"ATTACH '" + outside + "/other.duckdb'", outside + "/other.duckdb"},
		{"SELECT * FROM glob('/etc/*')", "/etc/*"},
		{"SELECT * FROM read_csv('" + data + "/../escape.csv')", "escape.csv"},
		{"SELECT * FROM read_csv('sales.csv')", "sales.csv"},
		{"INSTALL httpfs", ""},
		{"LOAD httpfs", ""},
	}
	for _, d := range denied {
		_, err := conn.Exec(bg, d.query)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "42501" || !strings.Contains(pe.Message, d.path) {
			t.Errorf("%s: %v, want 42501 naming %q", d.query, err, d.path)
		} else if !strings.Contains(pe.Hint, "--data-dir directories ("+data+")") {
			t.Errorf("%s: hint %q, want one naming --data-dir and %s", d.query, pe.Hint, data)
		}
	}
	for _, q := range []string{"SET GLOBAL enable_external_access = true", "SET enable_external_access = true",
		"SET GLOBAL allowed_directories = ['/']", "RESET enable_external_access"} {
		if _, err := conn.Exec(bg, q); err == nil {
			t.Errorf("%s succeeded", q)
		}
	}
	if _, err := conn.Exec(bg, "SELECT * FROM read_csv('/etc/passwd')"); err == nil {
		t.Fatal("external access is back on")
	}
	// Files under --data-dir are reachable both ways.
	file := filepath.Join(data, "v.csv")
	var n int
	if _, err := conn.Exec(bg, "COPY (SELECT range AS v FROM range(5)) TO '"+file+"' (HEADER)"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(bg, "SELECT sum(v) FROM read_csv('"+file+"')").Scan(&n); err != nil || n != 10 {
		t.Fatalf("sum from a data-dir file = %d, %v", n, err)
	}
	// COPY from and to the client does not touch the server's files.
	if _, err := conn.Exec(bg, "CREATE TABLE c (a INTEGER)"); err != nil {
		t.Fatal(err)
	}
	tag, err := conn.PgConn().CopyFrom(bg, strings.NewReader("1\n2\n"), "COPY c FROM STDIN")
	if err != nil || tag.RowsAffected() != 2 {
		t.Fatalf("COPY FROM STDIN: %v, %v", tag, err)
	}
	var out bytes.Buffer
	if _, err := conn.PgConn().CopyTo(bg, &out, "COPY c TO STDOUT"); err != nil || out.String() != "1\n2\n" {
		t.Fatalf("COPY TO STDOUT: %q, %v", out.String(), err)
	}
}

func TestDataDirFlagsAndEnvironment(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	t.Setenv("MALLARD_DATA_DIR", a+string(filepath.ListSeparator)+b)
	cfg, err := parseConfig(nil, io.Discard)
	if err != nil || len(cfg.DataDirs) != 2 || cfg.DataDirs[1] != b {
		t.Fatalf("from the environment: %v, %v", cfg.DataDirs, err)
	}
	cfg, err = parseConfig([]string{"--data-dir", b, "--data-dir", a}, io.Discard)
	if err != nil || len(cfg.DataDirs) != 2 || cfg.DataDirs[0] != b || cfg.DataDirs[1] != a {
		t.Fatalf("flags should replace the environment's list: %v, %v", cfg.DataDirs, err)
	}
}

// TestSandboxHintWithoutDataDir checks the hint of a server started
// without --data-dir, as make run starts it: it names the flag.
func TestSandboxHintWithoutDataDir(t *testing.T) {
	addr := freePort(t)
	serveInProcess(t, "--listen", addr, "--db", ":memory:", "--http", "")
	conn := connectRetry(t, addr)
	_, err := conn.Exec(context.Background(), "SELECT * FROM read_csv('sales.csv')")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42501" || !strings.Contains(pe.Hint, "--data-dir DIR") {
		t.Errorf("read_csv('sales.csv'): %v (hint %q), want 42501 with a hint naming --data-dir", err, hintOf(pe))
	}
}

func hintOf(pe *pgconn.PgError) string {
	if pe == nil {
		return ""
	}
	return pe.Hint
}
