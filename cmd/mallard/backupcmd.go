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
	"strings"

	"github.com/mallard/mallard/storage"
)

// backupConfig is what mallard backup is told.
type backupConfig struct {
	DB string // the database file to copy
	To string // the new file the copy is written to
}

// backupUsage introduces mallard backup's flags.
const backupUsage = `Usage: mallard backup --db FILE --to PATH

Writes a consistent copy of a database no server has open into the new
DuckDB file PATH, atomically (a file at PATH is a whole copy); a server
started on PATH serves the copy. For a database a server has open, run
SELECT mallard.backup('name') as its owner instead: it writes name.duckdb
in the server's --backup-dir (by default backups beside the database).

Flags of backup:
`

func backupFlags(cfg *backupConfig, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mallard backup", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(out, backupUsage)
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.DB, "db", env("db", "mallard.duckdb"), "the database file to copy ["+envName("db")+"]")
	fs.StringVar(&cfg.To, "to", "", "the file to write the copy to; it must not exist")
	return fs
}

// backup runs mallard backup: it opens the database, which no server may
// hold, copies it with storage.DB.Backup, the copy mallard.backup makes
// of a served database, and closes it.
func backup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg backupConfig
	fs := backupFlags(&cfg, stderr)
	if err := parseCommand(fs, args, cfg.validate); err != nil {
		return err
	}
	if pid, err := lockHolder(cfg.DB); err != nil {
		return fmt.Errorf("backup: %w", err)
	} else if pid != 0 {
		return fmt.Errorf("backup: -db %s is open in process %d, a running server: "+
			"connect to it as its owner and run SELECT mallard.backup(%s) instead (or SELECT mallard.backup('name'), "+
			"which writes name.duckdb in its backup directory)", cfg.DB, pid, sqlLiteral(cfg.To))
	}
	db, err := storage.Open(ctx, storage.Config{Path: cfg.DB}, slog.New(slog.DiscardHandler))
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	err = db.Backup(ctx, cfg.To)
	if cerr := db.Close(context.WithoutCancel(ctx)); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fi, err := os.Stat(cfg.To)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", cfg.DB, cfg.To, fi.Size())
	return nil
}

// validate checks the files and makes To absolute.
func (c *backupConfig) validate() error {
	if c.DB == "" || c.DB == storage.MemoryPath {
		return fmt.Errorf("-db %q: want the file of a database", c.DB)
	}
	if fi, err := os.Stat(c.DB); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("-db %s: want an existing database file", c.DB)
	}
	if c.To == "" {
		return errors.New("-to is missing: give the new file to write the copy to")
	}
	to, err := filepath.Abs(c.To)
	if err != nil {
		return fmt.Errorf("-to %s: %w", c.To, err)
	}
	c.To = to
	if _, err := os.Lstat(c.To); err == nil {
		return fmt.Errorf("-to %s exists: name a new file; a backup never overwrites", c.To)
	}
	if fi, err := os.Stat(filepath.Dir(c.To)); err != nil || !fi.IsDir() {
		return fmt.Errorf("-to %s: directory %s does not exist", c.To, filepath.Dir(c.To))
	}
	return nil
}

// sqlLiteral quotes s as an SQL string literal.
func sqlLiteral(s string) string {
	out := []byte{'\''}
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			out = append(out, '\'')
		}
		out = append(out, s[i])
	}
	return string(append(out, '\''))
}

// parseCommand parses the arguments of a command that takes only flags
// and validates what they set; its errors name the command (fs's name
// without "mallard ").
func parseCommand(fs *flag.FlagSet, args []string, validate func() error) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	cmd := strings.TrimPrefix(fs.Name(), "mallard ")
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", cmd, fs.Arg(0))
	}
	if err := validate(); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}
