package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/mallard/mallard/sqlstate"
)

// backups numbers the databases Backup attaches, so that two backups at
// once do not meet under one name.
var backups atomic.Int64

// Backup writes a consistent copy of the database into a new DuckDB file
// at path while other connections go on reading and writing: the copy is
// one statement, COPY FROM DATABASE, whose transaction sees the database
// as it was when it began, with every table, view, sequence (and its
// next value), index and macro, Mallard's mlops schema included. A
// server started on the file serves the copy. path must not exist yet;
// the sandbox (Config's data directories) decides where it may be
// written, as for any file SQL names, and it may not be one of Mallard's
// own (see fileGuard).
func (d *DB) Backup(ctx context.Context, path string) error {
	if d.guard != nil {
		if err := d.guard.check(path, "mallard.backup"); err != nil {
			return err
		}
	}
	var name string
	if err := d.sqldb.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
		return errorFromMessage(err.Error(), "")
	}
	conn, err := d.Connect()
	if err != nil {
		return err
	}
	defer conn.Close()
	// The sandbox's refusal of the path, if any, comes with its hint.
	if err := conn.Exec(ctx, "SELECT count(*) FROM glob("+literal(path)+")"); err != nil {
		return internal(conn.failure(err))
	}
	var n int
	if err := d.sqldb.QueryRowContext(ctx, "SELECT count(*) FROM glob(?)", path).Scan(&n); err != nil {
		return errorFromMessage(err.Error(), "")
	}
	if n > 0 {
		return sqlstate.New(sqlstate.DuplicateFile, "mallard.backup: file %s already exists", literal(path)).
			WithHint("Name a file that does not exist yet; a backup never overwrites.")
	}
	alias := fmt.Sprintf("mallard_backup_%d", backups.Add(1))
	if err := conn.Exec(ctx, "ATTACH "+literal(path)+" AS "+alias); err != nil {
		return internal(conn.failure(err))
	}
	err = conn.Exec(ctx, "COPY FROM DATABASE "+identifier(name)+" TO "+alias)
	if derr := conn.Exec(context.WithoutCancel(ctx), "DETACH "+alias); err == nil && derr != nil {
		err = derr
	}
	if err != nil {
		return internal(conn.failure(err))
	}
	return nil
}

// internal drops the position of an error of a statement Backup wrote: it
// points into that text, not the client's.
func internal(err error) error {
	var e *sqlstate.Error
	if errors.As(err, &e) {
		e.Position = 0
	}
	return err
}

// literal quotes s as an SQL string literal.
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// identifier quotes s as an SQL identifier.
func identifier(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
