//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// TestServerWideSettingsRefused: a session may not change a DuckDB setting
// that applies to every session (lock_configuration made the set-up of
// every later session fail), in any of the forms that reach it; each is
// refused with 55P02 and new sessions, owner's and reader's, still start.
func TestServerWideSettingsRefused(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t, sqlfront.Config{})
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	for _, q := range []string{
		"SET lock_configuration = true",
		"SET GLOBAL lock_configuration = true",
		"SET lock_configuration TO true",
		`SET "lock_configuration" = true`,
		"/* a comment */ SET lock_configuration = true",
		"-- a comment\nSET threads = 1",
		"PRAGMA lock_configuration = true",
		"RESET lock_configuration",
		"SET threads = 1",
		"RESET threads",
		"PRAGMA threads = 1",
		"SET memory_limit = '100MB'",
		"PRAGMA memory_limit = '100MB'",
		"SET enable_external_access = false",
		"SET allowed_directories = ['/tmp/']",
		"SET disabled_filesystems = 'LocalFileSystem'",
		"SET autoload_known_extensions = false",
		"SET autoinstall_known_extensions = false",
		"SET extension_directory = '/tmp/ext'",
		"SET temp_directory = '/tmp/spill'",
		"SET max_temp_directory_size = '1MB'",
		"SET custom_user_agent = 'x'",
		"SET checkpoint_threshold = '1GB'",
		"SET GLOBAL integer_division = false",
		"SET GLOBAL default_order = 'desc'",
		"RESET GLOBAL default_order",
		"PRAGMA disable_checkpoint_on_shutdown",
	} {
		_, err := conn.Exec(ctx, q)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "55P02" {
			t.Errorf("%s: %v, want 55P02", q, err)
		}
	}
	// set_config sets Postgres parameters and customized options only.
	for _, q := range []string{"SELECT set_config('lock_configuration', 'true', false)", "SELECT set_config('threads', '1', false)"} {
		_, err := conn.Exec(ctx, q)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "42704" {
			t.Errorf("%s: %v, want 42704", q, err)
		}
	}
	// An unscoped SET of a per-session DuckDB setting stays the session's
	// (DuckDB alone would apply SET default_order to every connection).
	mustExec(t, conn, "SET default_order = 'desc'")
	var mine, other string
	if err := conn.QueryRow(ctx, "SELECT current_setting('default_order')").Scan(&mine); err != nil {
		t.Fatal(err)
	}
	if err := connect(t, addr, pgx.QueryExecModeCacheStatement).QueryRow(ctx, "SELECT current_setting('default_order')").Scan(&other); err != nil || other == mine {
		t.Errorf("another session's default_order = %q, %v; this session's %q must stay its own", other, err, mine)
	}
	var one int
	if err := connect(t, addr, pgx.QueryExecModeCacheStatement).QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("a new session after the refused settings: %d, %v", one, err)
	}
}

// TestCheckSessionFailsWhenSessionsCannotStart: the readiness check sets
// up a session as a client's is set up, so it fails once DuckDB refuses
// the session settings (lock_configuration set behind the server's back),
// as a client's connection then does, where a ping still succeeds.
func TestCheckSessionFailsWhenSessionsCannotStart(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs testserver.LogBuffer
	srv, addr := serveFront(t, sqlfront.Config{}, server.Engine(db), defaultPlanner(), slog.New(slog.NewTextHandler(&logs, nil)), db.Close)
	if err := srv.CheckSession(ctx); err != nil {
		t.Fatalf("CheckSession on a healthy server: %v", err)
	}
	if _, err := db.SQL().ExecContext(ctx, "SET GLOBAL lock_configuration = true"); err != nil {
		t.Fatal(err)
	}
	if err := db.SQL().PingContext(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}
	if err := srv.CheckSession(ctx); err == nil {
		t.Error("CheckSession succeeded where no session can be set up")
	}
	if c, err := pgx.Connect(ctx, connString(addr)); err == nil {
		c.Close(ctx)
		t.Error("a client connected where no session can be set up")
	}
	if !strings.Contains(logs.String(), "session set-up failed") {
		t.Errorf("the failed session set-up is not logged: %s", logs.String())
	}
}
