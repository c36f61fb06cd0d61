package server

import (
	"context"

	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// Engine presents db to sqlfront, which sees the database only through
// its interfaces. storage's types implement them but for the types of
// what they return (a *storage.Stmt where sqlfront asks for a
// sqlfront.Stmt), which these wrappers convert.
func Engine(db *storage.DB) sqlfront.Engine { return engine{db} }

type engine struct{ *storage.DB }

func (e engine) Connect() (sqlfront.Conn, error) {
	c, err := e.DB.Connect()
	if err != nil {
		return nil, err
	}
	c.ConfineSettings() // a client session must not change the server's settings
	return conn{c}, nil
}

func (e engine) Exec(ctx context.Context, query string) error {
	_, err := e.SQL().ExecContext(ctx, query)
	return err
}

func (engine) WithNotifier(ctx context.Context, notify func(message string)) context.Context {
	return storage.WithNotifier(ctx, notify)
}

func (engine) IsInvalidated(err error) bool { return storage.IsInvalidated(err) }

func (engine) ReadOnlyError(what string) error { return storage.ReadOnlyError(what) }

func (e engine) Reserve(ctx context.Context, n int64, what string) (func(), error) {
	return e.Budget().Reserve(ctx, n, what)
}

type conn struct{ *storage.Conn }

func (c conn) Prepare(ctx context.Context, query string) (sqlfront.Stmt, error) {
	s, err := c.Conn.Prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	return stmt{s}, nil
}

func (c conn) PrepareOwn(ctx context.Context, query string) (sqlfront.Stmt, error) {
	s, err := c.Conn.PrepareOwn(ctx, query)
	if err != nil {
		return nil, err
	}
	return stmt{s}, nil
}

type stmt struct{ *storage.Stmt }

func (s stmt) Query(ctx context.Context) (sqlfront.Rows, error) {
	r, err := s.Stmt.Query(ctx)
	if err != nil {
		return nil, err
	}
	return r, nil
}
