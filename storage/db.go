// Package storage owns Mallard's DuckDB database: opening and checkpointing
// it, one native connection per client session, prepared statements whose
// results stream as Arrow record batches, and the one place where DuckDB's
// errors become Postgres SQLSTATEs. It is the only package that talks to
// DuckDB's C API.
package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// MemoryPath is the Config.Path that asks for a database that lives only as
// long as the process.
const MemoryPath = ":memory:"

// Config says which database to open and how DuckDB may use the machine.
type Config struct {
	// Path is the database file, created if missing, or MemoryPath.
	Path string
	// Threads caps DuckDB's worker threads; 0 keeps DuckDB's default.
	Threads int
	// MemoryLimit is DuckDB's memory_limit, such as "4GB"; empty keeps the default.
	MemoryLimit string
	// Sandbox turns DuckDB's external access off for every connection: no
	// file outside DataDirs and the spool directory (see DB.SpoolDir) can
	// be read or written, nothing attached, no extension installed or
	// loaded. DuckDB refuses to turn it back on while the database is open.
	Sandbox bool
	// DataDirs are the directories a sandboxed database may read and write.
	DataDirs []string
	// SandboxHint is the hint of the error (42501) a statement of a
	// sandboxed database gets when it reaches outside DataDirs: it says
	// how whoever starts the server widens them.
	SandboxHint string
	// BackupDir is where mallard.backup writes a backup named by a bare
	// file name (see DB.BackupTarget), created on first use; a sandboxed
	// database may write there as in DataDirs. Empty: no such directory.
	BackupDir string
	// Protected are directories of Mallard's own besides the database's
	// (the job directory): no statement a session prepares may read or
	// write in them, nor in the database file, its WAL, the spool or
	// DuckDB's temporary directory (see Conn.Prepare).
	Protected []string
}

// Validate reports the first problem with c.
func (c Config) Validate() error {
	if c.Path == "" {
		return errors.New("storage: database path is empty")
	}
	if c.Threads < 0 {
		return fmt.Errorf("storage: threads %d is negative", c.Threads)
	}
	for _, dir := range c.DataDirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("storage: data directory %q is not a directory", dir)
		}
	}
	return nil
}

// DB is an open DuckDB database. Native session connections (Connect) and
// database/sql connections (SQL) reach the same database instance.
type DB struct {
	db     mapping.Database
	sqldb  *sql.DB
	path   string
	tmpDir string // set when the database is a private temporary file
	spool  string // the sandbox's directory for spool files; "" without a sandbox
	// sandboxHint is Config.SandboxHint.
	sandboxHint string
	log         *slog.Logger
	// nextConn numbers native connections; calls maps a connection's id to
	// its running statement (a *callState), for Caller.
	nextConn atomic.Uint64
	calls    sync.Map
	idents   sync.Map // a connection's id → its *identity, while it is open
	budget   *Budget  // the memory limit, shared by DuckDB and Mallard's buffers
	// global names, lower-cased, the settings without a per-connection
	// value, which confined connections may not change (see confine.go).
	global map[string]bool
	guard  *fileGuard

	// Reopen (reopen.go) replaces db and sqldb under mu, one Reopen at a
	// time (reopening); generation counts the instances, and gate, while a
	// Reopen runs, holds back new connections until its hooks have run.
	cfg         Config
	mu          sync.RWMutex
	reopening   sync.Mutex
	generation  atomic.Uint64
	gate        chan struct{}
	reopenHooks []func(context.Context) error
	// pending journals the temporary files of backups in progress.
	pending pendingBackups
}

// Open opens or creates the database cfg names. An in-memory database is a
// file in a private temporary directory, removed by Close: DuckDB shares a
// database between its native and database/sql handles only through its
// instance cache, which holds files, not anonymous memory.
func Open(ctx context.Context, cfg Config, log *slog.Logger) (*DB, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := &DB{path: cfg.Path, log: log, sandboxHint: cfg.SandboxHint, cfg: cfg}
	if cfg.Path == MemoryPath {
		dir, err := makeMemDir(log)
		if err != nil {
			return nil, err
		}
		d.tmpDir, d.path = dir, filepath.Join(dir, "memory.duckdb")
	}
	if err := d.open(); err != nil {
		d.removeTemp()
		return nil, err
	}
	// The database is ours now, and so are the temporaries of backups it
	// journaled before a crash.
	d.pending.journal = d.path + ".backups"
	if err := d.pending.removeStale(); err != nil {
		_ = d.Close(ctx)
		return nil, err
	}
	if err := d.configure(ctx, cfg); err != nil {
		_ = d.Close(ctx)
		return nil, err
	}
	global, err := d.globalSettings(ctx)
	if err != nil {
		_ = d.Close(ctx)
		return nil, err
	}
	d.global = global
	if err := d.registerPGTypes(ctx); err != nil {
		_ = d.Close(ctx)
		return nil, err
	}
	if err := d.openGuard(ctx, protectedDirs(cfg.Protected)); err != nil {
		_ = d.Close(ctx)
		return nil, fmt.Errorf("guard the database's files: %w", err)
	}
	return d, nil
}

func (d *DB) open() error {
	sqldb, err := openInstance(d.path, &d.db)
	if err != nil {
		return err
	}
	d.sqldb = sqldb
	return nil
}

// openInstance opens the database file at path through duckdb-go's
// instance cache, natively into db and as a database/sql handle on the
// same instance.
func openInstance(path string, db *mapping.Database) (*sql.DB, error) {
	var cfg mapping.Config
	if mapping.CreateConfig(&cfg) == mapping.StateError {
		return nil, errors.New("open database: cannot create DuckDB config")
	}
	defer mapping.DestroyConfig(&cfg)
	// The same config duckdb-go uses, so that its connector shares this instance.
	mapping.SetConfig(cfg, "duckdb_api", "go")
	var errMsg string
	if mapping.GetOrCreateFromCache(duckdb.GetInstanceCache(), path, db, cfg, &errMsg) == mapping.StateError {
		mapping.Close(db)
		return nil, fmt.Errorf("open database %s: %w", path, errorFromMessage(errMsg, ""))
	}
	connector, err := duckdb.NewConnector(path, nil)
	if err != nil {
		mapping.Close(db)
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return sql.OpenDB(connector), nil
}

func (d *DB) configure(ctx context.Context, cfg Config) error {
	// DuckDB's statistics propagation can prove at prepare time that a
	// filter matches nothing (a literal outside a column's current min and
	// max) and fold the plan to an empty result; a prepared statement
	// keeps that plan after other connections insert matching rows. Postgres
	// drivers cache prepared statements (pgx always, pgjdbc and psycopg 3
	// after a few runs), so a dashboard polling the same query would never
	// see new rows. Found with a poll of mlops.models during training.
	if _, err := d.sqldb.ExecContext(ctx, "SET GLOBAL disabled_optimizers = 'statistics_propagation'"); err != nil {
		return fmt.Errorf("set disabled_optimizers: %w", err)
	}
	if cfg.Threads > 0 {
		if _, err := d.sqldb.ExecContext(ctx, fmt.Sprintf("SET GLOBAL threads = %d", cfg.Threads)); err != nil {
			return fmt.Errorf("set threads: %w", err)
		}
	}
	if err := d.applyMemoryLimit(ctx, cfg.MemoryLimit); err != nil {
		return err
	}
	// jemalloc, DuckDB's allocator on Linux, returns freed pages to the
	// system only when it allocates or frees again unless its background
	// threads purge them. Measured with --memory-limit 2GB and SELECT
	// list(i) FROM range(1e9) failing with 53200 three times: without
	// them RSS rose 2.0, 2.5, 3.4 GB and stayed at 1.7 GB idle; with them
	// the peak was 2.0 GB and RSS was back at 76 MB 5 s later.
	if _, err := d.sqldb.ExecContext(ctx, "SET GLOBAL allocator_background_threads = true"); err != nil {
		return fmt.Errorf("set allocator_background_threads: %w", err)
	}
	if cfg.Sandbox {
		dirs := cfg.DataDirs
		if cfg.BackupDir != "" {
			dirs = append(append([]string(nil), dirs...), cfg.BackupDir)
		}
		return d.sandbox(ctx, dirs)
	}
	return nil
}

// sandbox turns external access off, allowing only dirs and the spool
// directory: the database file's name with ".spool", emptied here and
// removed by Close, so that the spool files of a process that was killed
// go when the database next opens.
func (d *DB) sandbox(ctx context.Context, dirs []string) error {
	spool := d.path + ".spool"
	if err := os.RemoveAll(spool); err != nil {
		return fmt.Errorf("sandbox: empty spool directory: %w", err)
	}
	if err := os.Mkdir(spool, 0o700); err != nil {
		return fmt.Errorf("sandbox: spool directory: %w", err)
	}
	d.spool = spool
	allowed := []string{quoteLiteral(spool + string(filepath.Separator))}
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return fmt.Errorf("sandbox: data directory %q: %w", dir, err)
		}
		allowed = append(allowed, quoteLiteral(strings.TrimSuffix(abs, string(filepath.Separator))+string(filepath.Separator)))
	}
	if _, err := d.sqldb.ExecContext(ctx, "SET GLOBAL allowed_directories = ["+strings.Join(allowed, ", ")+"]"); err != nil {
		return fmt.Errorf("sandbox: set allowed_directories: %w", err)
	}
	if _, err := d.sqldb.ExecContext(ctx, "SET GLOBAL enable_external_access = false"); err != nil {
		return fmt.Errorf("sandbox: set enable_external_access: %w", err)
	}
	return nil
}

// SpoolDir is where a sandboxed database reads files that sessions spool
// (COPY FROM STDIN); "" means the system's temporary directory.
func (d *DB) SpoolDir() string { return d.spool }

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Path is the database file in use (a temporary file for MemoryPath).
func (d *DB) Path() string { return d.path }

// SQL returns a database/sql handle on the same database, for Mallard's own
// bookkeeping queries and function registration.
func (d *DB) SQL() *sql.DB {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.sqldb
}

// Version is DuckDB's library version, such as "v1.5.5".
func Version() string { return mapping.LibraryVersion() }

// Close checkpoints the database (so the next start needs no WAL replay) and
// releases it. Sessions must be closed first.
func (d *DB) Close(ctx context.Context) error {
	var errs []error
	if d.sqldb != nil {
		if d.tmpDir == "" {
			if _, err := d.sqldb.ExecContext(ctx, "CHECKPOINT"); err != nil {
				errs = append(errs, fmt.Errorf("checkpoint: %w", err))
			}
		}
		errs = append(errs, d.sqldb.Close())
	}
	mapping.Close(&d.db)
	// Sessions are closed, so no backup is in progress: any temporary
	// the journal lists is a leftover.
	if d.pending.journal != "" {
		errs = append(errs, d.pending.removeStale())
	}
	d.removeTemp()
	return errors.Join(errs...)
}

func (d *DB) removeTemp() {
	if d.spool != "" {
		if err := os.RemoveAll(d.spool); err != nil && d.log != nil {
			d.log.Warn("remove spool directory", "dir", d.spool, "err", err)
		}
	}
	if d.tmpDir != "" {
		if err := os.RemoveAll(d.tmpDir); err != nil && d.log != nil {
			d.log.Warn("remove in-memory database file", "dir", d.tmpDir, "err", err)
		}
	}
}
