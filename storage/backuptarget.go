package storage

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/mallard/mallard/sqlstate"
)

// BackupSuffix is added to a bare backup name that does not end in it.
const BackupSuffix = ".duckdb"

// BackupTarget is the file mallard.backup(name) writes: name itself if it
// is an absolute path, or, for a bare file name (no directory), that name
// in Config.BackupDir, with BackupSuffix added if missing; the backup
// directory is created on first use. Any other name fails with 22023, and
// one of Mallard's own files with 42501 (see refuseOwn).
func (d *DB) BackupTarget(name string) (string, error) {
	switch {
	case filepath.IsAbs(name):
		path := filepath.Clean(name)
		return path, d.refuseOwn(path)
	case name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/'):
		return "", sqlstate.New(sqlstate.InvalidParameterValue, "mallard.backup: file %s must be a bare file name or an absolute path", literal(name)).
			WithHint("Name a file such as 'nightly' (written to the backup directory) or an absolute path under a --data-dir or the --backup-dir.")
	case d.cfg.BackupDir == "":
		return "", sqlstate.New(sqlstate.InvalidParameterValue, "mallard.backup: file %s is a bare name, and this server has no backup directory", literal(name)).
			WithHint("Start the server with --backup-dir DIR, or name an absolute path under a --data-dir.")
	}
	if !strings.HasSuffix(name, BackupSuffix) {
		name += BackupSuffix
	}
	if err := os.MkdirAll(d.cfg.BackupDir, 0o750); err != nil {
		return "", fileError("mallard.backup: backup directory", d.cfg.BackupDir, err)
	}
	path := filepath.Join(d.cfg.BackupDir, name)
	return path, d.refuseOwn(path)
}

// refuseOwn fails with 42501 when path is one of Mallard's own files: the
// database file, or any file or directory whose name begins with the
// database file's name and a dot (its WAL, the spool directory, the jobs
// directory, the backup journal), or anything inside them. Symbolic links
// in the existing part of path are followed.
func (d *DB) refuseOwn(path string) error {
	own := resolved(d.path)
	target := resolved(path)
	rel, err := filepath.Rel(filepath.Dir(own), target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	first, _, _ := strings.Cut(rel, string(filepath.Separator))
	base := filepath.Base(own)
	if first != base && !strings.HasPrefix(first, base+".") {
		return nil
	}
	return sqlstate.New(sqlstate.InsufficientPrivilege, "mallard.backup: file %s is one of the server's own files", literal(path)).
		WithDetail("The database %s, and every file whose name begins with %q, belong to the server.", d.path, base+".").
		WithHint("Name a bare file name (written to the backup directory) or a path under a --data-dir.")
}

// resolved is path made absolute with the symbolic links of its longest
// existing prefix followed.
func resolved(path string) string {
	path, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for dir := path; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		if dir == filepath.Dir(dir) {
			return path
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// fileError is the SQLSTATE error of a failed file operation of what on
// path: 53100 when the disk is full, else 58030.
func fileError(what, path string, err error) error {
	var e *sqlstate.Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, syscall.ENOSPC) {
		return sqlstate.New(sqlstate.DiskFull, "%s: disk full writing %s: %v", what, literal(path), err).WithHint("%s", diskFullHint)
	}
	return sqlstate.New(sqlstate.IOError, "%s: %s: %v", what, literal(path), err)
}

// diskFullHint is the hint of every 53100 error.
const diskFullHint = "The disk holding the file is full: free space on it (or write elsewhere) and retry. What was committed before is intact."

// tempMark is in the name of every temporary backup file, which is
// "." + the target's name + tempMark + a number, in the target's directory.
const tempMark = ".mallard-backup-"

// pendingBackups is the journal of temporary backup files: the file
// Config.Path + ".backups", one path a line, appended to (and synced)
// before each temporary is created. Only the process that holds the
// database writes it, so when the database opens, every temporary it
// lists belongs to a backup that can no longer finish: Open removes them
// and empties the journal.
type pendingBackups struct {
	mu      sync.Mutex // serialises appends and the numbering
	journal string
	next    int
}

// add records and returns a new temporary name for a backup to path.
func (p *pendingBackups) add(path string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s%s%d-%d", filepath.Base(path), tempMark, os.Getpid(), p.next))
	f, err := os.OpenFile(p.journal, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(tmp + "\n")
	if err == nil {
		err = f.Sync()
	}
	return tmp, errors.Join(err, f.Close())
}

// removeStale removes the temporaries the journal lists, and then the
// journal. A line that is not the name of a temporary is skipped, so a
// damaged journal removes nothing else.
func (p *pendingBackups) removeStale() error {
	f, err := os.Open(p.journal)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("backup journal: %w", err)
	}
	var errs []error
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		tmp := lines.Text()
		if filepath.IsAbs(tmp) && strings.HasPrefix(filepath.Base(tmp), ".") && strings.Contains(filepath.Base(tmp), tempMark) {
			errs = append(errs, removeDatabaseFile(tmp))
		}
	}
	errs = append(errs, lines.Err(), f.Close(), os.Remove(p.journal))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("backup journal %s: remove unfinished backups: %w", p.journal, err)
	}
	return nil
}
