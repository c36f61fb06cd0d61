package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
// server started on the file serves the copy.
//
// The copy is atomic: it is written to a temporary file in path's
// directory (see pendingBackups), synced, and only then linked to path
// and the directory synced. Whatever stops it (an error, a cancel, a
// full disk, the process killed) leaves nothing at path; the temporary
// is removed at once, or by the next Open if the process died, and the
// temporary's database is detached on every path out. path must not
// exist yet and must not be one of Mallard's own files (BackupTarget);
// the sandbox (Config's data directories) decides where it may be
// written, as for any file SQL names, and it may not be one of Mallard's
// own (see fileGuard).
func (d *DB) Backup(ctx context.Context, path string) error {
	if err := d.refuseOwn(path); err != nil {
		return err
	}
	if d.guard != nil {
		if err := d.guard.check(path, "mallard.backup"); err != nil {
			return err
		}
	}
	var name string
	if err := d.sqldb.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
		return errorFromDriver(err)
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
	if err := refuseExisting(path); err != nil {
		return err
	}
	tmp, err := d.pending.add(path)
	if err != nil {
		return fileError("mallard.backup", path, err)
	}
	if err := d.copyInto(ctx, conn, name, tmp); err != nil {
		return errors.Join(err, removeDatabaseFile(tmp))
	}
	if err := publish(tmp, path); err != nil {
		return errors.Join(fileError("mallard.backup", path, err), removeDatabaseFile(tmp))
	}
	return nil
}

// copyInto attaches the new file tmp, copies database name into it and
// detaches it, whether the copy succeeded or not: a copy that failed
// leaves the connection's transaction aborted, so it is rolled back
// first, and neither step heeds ctx, so that a canceled backup lets go
// of its file too.
func (d *DB) copyInto(ctx context.Context, conn *Conn, name, tmp string) error {
	alias := fmt.Sprintf("mallard_backup_%d", backups.Add(1))
	if err := conn.Exec(ctx, "ATTACH "+literal(tmp)+" AS "+alias); err != nil {
		_ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		return internal(conn.failure(err))
	}
	err := conn.Exec(ctx, "COPY FROM DATABASE "+identifier(name)+" TO "+alias)
	if err != nil {
		err = internal(conn.failure(err))
		_ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK") // fails when no transaction is open
	}
	if derr := conn.Exec(context.WithoutCancel(ctx), "DETACH "+alias); derr != nil && err == nil {
		err = internal(conn.failure(derr))
	}
	return err
}

// refuseExisting fails with 58P02 if path exists: a backup never overwrites.
func refuseExisting(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return sqlstate.New(sqlstate.DuplicateFile, "mallard.backup: file %s already exists", literal(path)).
			WithHint("Name a file that does not exist yet; a backup never overwrites.")
	}
	return nil
}

// publish makes the finished copy tmp durable at path: it syncs tmp,
// links it to path (which fails if path appeared meanwhile: a backup
// never overwrites), removes tmp and syncs the directory.
func publish(tmp, path string) error {
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return refuseExisting(path)
		}
		// A file system without hard links: rename, after the check above.
		if err := refuseExisting(path); err != nil {
			return err
		}
		if err := os.Rename(tmp, path); err != nil {
			return err
		}
		return syncDir(filepath.Dir(path))
	}
	if err := os.Remove(tmp); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncFile flushes the file at path to its disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// syncDir flushes dir's entries (a rename or a link in it) to its disk.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// removeDatabaseFile removes a DuckDB file and its WAL, if they exist.
func removeDatabaseFile(path string) error {
	var errs []error
	for _, p := range []string{path, path + ".wal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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
