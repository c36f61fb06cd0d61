package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mallard/mallard/storage"
)

// restoreConfig is what mallard restore is told.
type restoreConfig struct {
	From string // the backup to restore
	DB   string // the database file it replaces, or creates
}

// restoreUsage introduces mallard restore's flags.
const restoreUsage = `Usage: mallard restore --from BACKUP --db FILE

Replaces the database FILE (or creates it) with a copy of BACKUP, a file
written by SELECT mallard.backup(...) or mallard backup; BACKUP is left as
it is. No server may have FILE open. The copy is written beside FILE,
checked to open as a database, synced, and renamed over FILE: FILE is
either the old database or the restored one, never a mixture. FILE's old
WAL, if any, is removed first, since it belongs to the database replaced.

Flags of restore:
`

func restoreFlags(cfg *restoreConfig, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mallard restore", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(out, restoreUsage)
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.From, "from", "", "the backup file to restore")
	fs.StringVar(&cfg.DB, "db", env("db", "mallard.duckdb"), "the database file to replace ["+envName("db")+"]")
	return fs
}

// restore runs mallard restore (see restoreUsage).
func restore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg restoreConfig
	fs := restoreFlags(&cfg, stderr)
	if err := parseCommand(fs, args, cfg.validate); err != nil {
		return err
	}
	if err := refuseServed(cfg.DB); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	removeStaleRestores(cfg.DB)
	tmp := fmt.Sprintf("%s%s%d", cfg.DB, restoreMark, os.Getpid())
	if err := restoreInto(ctx, cfg.From, tmp); err != nil {
		return errors.Join(fmt.Errorf("restore: %w", err), removeWithWAL(tmp))
	}
	// A server may have started on FILE while the copy was written.
	if err := refuseServed(cfg.DB); err != nil {
		return errors.Join(fmt.Errorf("restore: %w", err), removeWithWAL(tmp))
	}
	if err := replace(tmp, cfg.DB); err != nil {
		return errors.Join(fmt.Errorf("restore: %w", err), removeWithWAL(tmp))
	}
	fi, err := os.Stat(cfg.DB)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	fmt.Fprintf(stdout, "restored %s from %s (%d bytes)\n", cfg.DB, cfg.From, fi.Size())
	return nil
}

// validate checks the files and makes them absolute.
func (c *restoreConfig) validate() error {
	if c.From == "" {
		return errors.New("-from is missing: give the backup file to restore")
	}
	if fi, err := os.Stat(c.From); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("-from %s: want an existing backup file", c.From)
	}
	if c.DB == "" || c.DB == storage.MemoryPath {
		return fmt.Errorf("-db %q: want the file of a database", c.DB)
	}
	var err error
	if c.From, err = filepath.Abs(c.From); err != nil {
		return err
	}
	if c.DB, err = filepath.Abs(c.DB); err != nil {
		return err
	}
	if fi, err := os.Stat(filepath.Dir(c.DB)); err != nil || !fi.IsDir() {
		return fmt.Errorf("-db %s: directory %s does not exist", c.DB, filepath.Dir(c.DB))
	}
	if from, err := os.Stat(c.From); err == nil {
		if db, err := os.Stat(c.DB); err == nil && os.SameFile(from, db) {
			return fmt.Errorf("-from %s is -db itself: name the backup to restore", c.From)
		}
	}
	return nil
}

// refuseServed fails if a process holds the database file db.
func refuseServed(db string) error {
	if _, err := os.Stat(db); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	pid, err := lockHolder(db)
	if err != nil {
		return err
	}
	if pid != 0 {
		return fmt.Errorf("-db %s is open in process %d, a running server: stop it first; "+
			"nothing was changed", db, pid)
	}
	return nil
}

// restoreInto copies the backup from into the new file tmp, opens it as a
// database (which checks it is one and checkpoints it) and syncs it.
func restoreInto(ctx context.Context, from, tmp string) error {
	if err := copyFile(from, tmp); err != nil {
		return err
	}
	db, err := storage.Open(ctx, storage.Config{Path: tmp}, slog.New(slog.DiscardHandler))
	if err != nil {
		return fmt.Errorf("-from %s does not open as a database: %w", from, err)
	}
	var n int
	err = db.SQL().QueryRowContext(ctx, "SELECT count(*) FROM duckdb_tables()").Scan(&n)
	if cerr := db.Close(context.WithoutCancel(ctx)); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-from %s: %w", from, err)
	}
	return syncPath(tmp)
}

// copyFile copies from into the new file to and syncs it.
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Sync()
	}
	return errors.Join(err, dst.Close())
}

// replace renames tmp over db after removing db's WAL, and syncs the
// directory, so that the rename outlives a crash.
func replace(tmp, db string) error {
	if err := os.Remove(db + ".wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(tmp, db); err != nil {
		return err
	}
	return syncPath(filepath.Dir(db))
}

// syncPath flushes the file or directory at path to its disk.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// restoreMark follows the database's name in the name of a restore's
// temporary file, and the restoring process's id follows it.
const restoreMark = ".restore-"

// removeStaleRestores removes the temporaries of restores of db whose
// process no longer runs.
func removeStaleRestores(db string) {
	tmps, _ := filepath.Glob(db + restoreMark + "*")
	for _, tmp := range tmps {
		pid, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(tmp, db+restoreMark), ".wal"))
		if err != nil || pid <= 0 || processRuns(pid) {
			continue
		}
		_ = os.Remove(tmp)
	}
}

// removeWithWAL removes a database file and its WAL, if they exist.
func removeWithWAL(path string) error {
	var errs []error
	for _, p := range []string{path, path + ".wal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
