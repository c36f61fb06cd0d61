package sqlfront

import (
	"context"
	"fmt"
	"time"

	"github.com/mallard/mallard/sqlstate"
)

// reopenTimeout bounds the reopening of an invalidated database: replaying
// its WAL and installing the catalog again.
const reopenTimeout = 5 * time.Minute

// installCatalog prepares db for Postgres clients: the statements New
// runs, and runs again when the database is reopened (the catalog lives in
// the instance's memory, not in the file).
func installCatalog(ctx context.Context, db Engine, setup []string) error {
	for _, q := range setup {
		if err := db.Exec(ctx, q); err != nil {
			return fmt.Errorf("prepare database for Postgres clients: %w", err)
		}
	}
	return nil
}

// invalidated returns the error a statement reports when err is DuckDB's
// report that it invalidated the database, after the server has recovered
// (see recoverDatabase); any other err is returned as it is. The session
// ends after the error is sent: its DuckDB connection, prepared statements
// and open transaction belonged to the instance that is gone.
func (s *session) invalidated(err error) error {
	if !s.srv.db.IsInvalidated(err) {
		return err
	}
	s.srv.recoverDatabase(err)
	return &sqlstate.Error{Code: sqlstate.InternalError,
		Message: "DuckDB invalidated the database after a fatal error; the server has reopened it and ends this session",
		Detail:  sqlstate.From(err).Message,
		Hint:    "Reconnect and run the statement again: committed transactions are kept, this session's open transaction is lost."}
}

// recoverDatabase reopens the database that DuckDB invalidated (cause is
// its error), then ends every session whose DuckDB connection belongs to
// the old instance with 57P01, as Postgres ends its sessions after a crash;
// a client reconnects and finds the committed data. Sessions that start
// meanwhile wait until the database is ready. Several sessions may see the
// error at once: the first reopens, the others find it done.
func (s *Server) recoverDatabase(cause error) {
	ctx, cancel := context.WithTimeout(context.Background(), reopenTimeout)
	defer cancel()
	reopened, err := s.db.Reopen(ctx)
	switch {
	case err != nil:
		s.log.Error("DuckDB invalidated the database, and reopening it failed", "cause", cause, "err", err)
	case reopened:
		s.log.Error("DuckDB invalidated the database after a fatal error; reopened it, ending the sessions of the old instance", "cause", cause)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sess := range s.sessions {
		if sess.db.Stale() {
			sess.terminate(&sqlstate.Error{Code: sqlstate.AdminShutdown, Severity: "FATAL",
				Message: "terminating connection because DuckDB invalidated the database; the server has reopened it",
				Hint:    "Reconnect and repeat your command: committed transactions are kept."})
		}
	}
}

// startupFailed returns the error a connection whose session could not be
// set up reports: when DuckDB had invalidated the database (a statement of
// Mallard's own, not a client's, met the fatal error), the server reopens
// it first, so that the client's next attempt succeeds.
func (s *Server) startupFailed(err error) error {
	if !s.db.IsInvalidated(err) {
		return err
	}
	s.recoverDatabase(err)
	return &sqlstate.Error{Code: sqlstate.InternalError,
		Message: "DuckDB invalidated the database after a fatal error; the server has reopened it",
		Detail:  sqlstate.From(err).Message,
		Hint:    "Connect again."}
}
