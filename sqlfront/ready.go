package sqlfront

import (
	"context"
	"fmt"
)

// CheckSession sets up an engine connection as a new client's session is
// set up (Postgres' semantics, the default schema, the parameters'
// mirrors), then closes it. It fails where a client's session would fail
// to start, such as when a server-wide DuckDB setting refuses the session
// settings: /readyz's proof that clients can be served, not only that
// the database answers.
func (s *Server) CheckSession(ctx context.Context) error {
	db, err := s.db.Connect()
	if err != nil {
		return fmt.Errorf("set up a session: %w", err)
	}
	defer db.Close()
	sess := &session{srv: s, db: db, notices: newNotices(), log: s.log, tx: txIdle}
	sess.ctx, sess.stop = context.WithCancelCause(ctx)
	defer sess.stop(nil)
	// No statement_timeout: ctx bounds the check, and the session has no client to write to.
	sess.params = newParams(map[string]string{"user": "readyz"}, s.cfg.ServerVersion, 0, s.cfg.MaxPrepared)
	if err := sess.init(); err != nil {
		return fmt.Errorf("set up a session: %w", err)
	}
	return nil
}
