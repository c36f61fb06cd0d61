//go:build duckdb_arrow

// Package ops is the operator's SQL surface over a running server:
// pg_stat_activity listing every client session, pg_cancel_backend and
// pg_terminate_backend to signal one, and pg_stat_statements with
// pg_stat_statements_reset(). The sessions live in sqlfront; ops
// makes them visible to SQL through functions it declares to storage
// (storage.Functions), which installs them in the database.
package ops

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/sqlfront/statements"
	"github.com/mallard/mallard/storage"
)

// Sessions are the server's client sessions; *sqlfront.Server is one.
type Sessions interface {
	// Activity lists the sessions.
	Activity() []sqlfront.Backend
	// Signal cancels the statement of, or ends, the session with process
	// id pid on behalf of the session whose storage connection is by.
	Signal(by uint64, pid int64, terminate bool) (bool, error)
	// AwaitEnd waits up to timeout for the session with process id pid
	// to end: false, with a WARNING to the session by, if it has not.
	AwaitEnd(by uint64, pid int64, timeout time.Duration) bool
	// Statements are the statement statistics, and ResetStatements
	// forgets them.
	Statements() []statements.Stat
	ResetStatements()
}

//go:embed *.sql
var views embed.FS

// Register installs the functions in db and the catalog views that read
// them, replacing the catalog's single-session pg_stat_activity. It must
// run after the server has installed its catalog (sqlfront.New).
func Register(ctx context.Context, db *storage.DB, sessions Sessions) error {
	fs := storage.Functions{
		Tables:  []storage.TableFunction{activityTable(db, sessions), statementsTable(db, sessions), cursorsTable(db, sessions)},
		Scalars: []storage.ScalarFunction{resetStatements{db: db, sessions: sessions}.function()},
	}
	for _, terminate := range []bool{false, true} {
		fs.Scalars = append(fs.Scalars, signalFunctions(db, sessions, terminate)...)
	}
	if err := db.Register(ctx, fs); err != nil {
		return fmt.Errorf("register operations: %w", err)
	}
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		return fmt.Errorf("register operations: %w", err)
	}
	defer conn.Close()
	files, err := views.ReadDir(".")
	if err != nil {
		return err
	}
	for _, f := range files {
		q, err := views.ReadFile(f.Name())
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, string(q)); err != nil {
			return fmt.Errorf("install %s: %w", f.Name(), err)
		}
	}
	return nil
}

// Scalars are the functions the planner must pass the caller to, first
// (see plan.Catalog.Scalars).
func Scalars() []string { return []string{signalName(false), signalName(true), resetFunction} }

// Views are the pg_catalog relations Register adds to the catalog's, for
// the planner to route (see plan.Catalog.Views).
func Views() []string { return []string{"pg_stat_statements"} }

// callerOf reads the caller the planner passes a scalar function: a JSON
// object whose id is the calling connection's token.
func callerOf(db *storage.DB, arg any) storage.Caller {
	var caller struct {
		Token string `json:"id"`
	}
	if text, ok := arg.(string); ok {
		_ = json.Unmarshal([]byte(text), &caller)
	}
	return db.CallerOf(caller.Token)
}
