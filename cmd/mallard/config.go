package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// Config is everything mallard serve can be told. Defaults are in newFlags.
type Config struct {
	Listen    string
	DB        string
	LogLevel  string
	LogFormat string
	// LogMinDuration is Postgres' log_min_duration_statement: statements
	// that take at least this long are logged; 0 logs every one, and a
	// negative value none.
	LogMinDuration time.Duration
	User           string
	Password       string
	ReaderUser     string
	ReaderPassword string
	// PasswordFile and ReaderPasswordFile, when set, hold Password and
	// ReaderPassword (see readPasswordFiles).
	PasswordFile       string
	ReaderPasswordFile string
	// passwordFlags are the password flags given on the command line,
	// which the process list shows to every local user: serve warns.
	passwordFlags  []string
	TLS            string
	TLSCert        string
	TLSKey         string
	MaxMessageSize int
	Threads        int
	MemoryLimit    string
	MaxTrainings   int
	Mpirun         string
	MPIHostfile    string
	Launcher       string
	JobDir         string
	HTTP           string
	DataDirs       []string
	// BackupDir is where mallard.backup('name') writes; empty means a
	// backups directory beside the database file (see backupDir).
	BackupDir        string
	RequireTLS       bool
	MaxConnections   int
	StatementStats   int
	StatementTimeout time.Duration
	// AuthenticationTimeout and MaxStartups are sqlfront.Config's.
	AuthenticationTimeout time.Duration
	MaxStartups           int
	// AuthDelay is sqlfront.Config's.
	AuthDelay time.Duration
	// ShutdownGrace is how long statements running at SIGTERM or SIGINT
	// may go on before they are canceled (see shutdown).
	ShutdownGrace time.Duration
	// QuerySize is Postgres' track_activity_query_size: the bytes of a
	// statement's text that pg_stat_statements keeps; 0 for 1024.
	QuerySize int
	// MaxPrepared is sessions' default mallard.max_prepared_statements;
	// 0 for sqlfront.DefaultMaxPrepared.
	MaxPrepared int
}

// defaultHTTP is where the dashboard listens unless told otherwise. When
// it is taken the server starts without a dashboard; an address given
// explicitly must work.
const defaultHTTP = "127.0.0.1:8080"

// newFlags binds cfg to flags whose defaults come from MALLARD_* variables.
func newFlags(cfg *Config, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mallard serve", flag.ContinueOnError)
	dataDirGiven := false
	fs.SetOutput(out)
	str := func(p *string, name, def, help string) {
		fs.StringVar(p, name, env(name, def), help+" ["+envName(name)+"]")
	}
	integer := func(p *int, name string, def int, help string) {
		v, err := strconv.Atoi(env(name, strconv.Itoa(def)))
		if err != nil {
			v = -1 // Validate reports it
		}
		fs.IntVar(p, name, v, help+" ["+envName(name)+"]")
	}
	str(&cfg.Listen, "listen", "127.0.0.1:5433", "address to accept Postgres clients on")
	str(&cfg.DB, "db", "mallard.duckdb", "database file, created if missing, or :memory:")
	str(&cfg.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	str(&cfg.LogFormat, "log-format", "text", "log format: text (key=value lines) or json (one object a line)")
	minDuration, err := parseMinDuration(env("log-min-duration-statement", "-1"))
	if err != nil {
		minDuration = invalidDuration // Validate reports it
	}
	cfg.LogMinDuration = minDuration
	fs.Func("log-min-duration-statement", "log each statement that takes at least this long, with its duration: milliseconds "+
		"as in Postgres, or a duration such as 250ms or 2s; 0 logs every statement, -1 none (default -1) ["+envName("log-min-duration-statement")+"]",
		func(v string) error {
			d, err := parseMinDuration(v)
			cfg.LogMinDuration = d
			return err
		})
	str(&cfg.User, "user", "mallard", "the user name clients log in as when a password is set")
	str(&cfg.Password, "password", "", "require SCRAM-SHA-256 authentication with this password (default: trust, loopback only)")
	str(&cfg.ReaderUser, "reader-user", "reader", "the user name of the read-only role")
	str(&cfg.PasswordFile, "password-file", "", "read -password from this file (its first line), kept out of the process list")
	str(&cfg.ReaderPasswordFile, "reader-password-file", "", "read -reader-password from this file (its first line)")
	str(&cfg.ReaderPassword, "reader-password", "", "allow the read-only role with this password: it may query and call forecast, recommend, evaluate and attention, nothing else (needs -password)")
	str(&cfg.TLS, "tls", "off", "TLS: off, or self-signed to generate a certificate at start (see also -tls-cert)")
	str(&cfg.TLSCert, "tls-cert", "", "PEM certificate file; with -tls-key turns TLS on")
	str(&cfg.TLSKey, "tls-key", "", "PEM private key file for -tls-cert")
	boolean := func(p *bool, name string, help string) {
		v, err := strconv.ParseBool(env(name, "false"))
		if err != nil {
			v = false
		}
		fs.BoolVar(p, name, v, help+" ["+envName(name)+"]")
	}
	boolean(&cfg.RequireTLS, "require-tls", "refuse sessions that do not use TLS (needs -tls or -tls-cert)")
	integer(&cfg.MaxConnections, "max-connections", 100, "client sessions at once; one more is refused with 53300")
	integer(&cfg.StatementStats, "stat-statements-max", 5000, "groups of statements pg_stat_statements keeps statistics of (the least called go first); 0 keeps none")
	integer(&cfg.QuerySize, "track-activity-query-size", 1024, "bytes of each statement's text pg_stat_statements keeps (Postgres' track_activity_query_size), at least 100")
	integer(&cfg.MaxPrepared, "max-prepared-statements", sqlfront.DefaultMaxPrepared,
		"sessions' default mallard.max_prepared_statements: prepared statements (protocol and SQL PREPARE) one session may hold; one more fails with 53200")
	timeout, err := time.ParseDuration(env("statement-timeout", "0s"))
	if err != nil {
		timeout = -1 // Validate reports it
	}
	fs.DurationVar(&cfg.StatementTimeout, "statement-timeout", timeout,
		"sessions' default statement_timeout, such as 30s or 5m; 0 for none (a session may SET its own) ["+envName("statement-timeout")+"]")
	authTimeout, err := time.ParseDuration(env("authentication-timeout", sqlfront.DefaultAuthenticationTimeout.String()))
	if err != nil {
		authTimeout = -1 // Validate reports it
	}
	fs.DurationVar(&cfg.AuthenticationTimeout, "authentication-timeout", authTimeout,
		"how long a client may take to start up and log in before its connection is closed, as Postgres' authentication_timeout ["+envName("authentication-timeout")+"]")
	authDelay, err := time.ParseDuration(env("auth-delay", sqlfront.DefaultAuthDelay.String()))
	if err != nil {
		authDelay = -1 // Validate reports it
	}
	fs.DurationVar(&cfg.AuthDelay, "auth-delay", authDelay, "a failed login (wire or dashboard) is answered after this delay times the failures in a row from its address, at most "+
		sqlfront.DefaultMaxAuthDelay.String()+", as Postgres' auth_delay ["+envName("auth-delay")+"]")
	integer(&cfg.MaxStartups, "max-startups", 0, "connections still starting up (logging in) at once; one more is refused with 53300 (0: -max-connections)")
	grace, err := parseGrace(env("shutdown-grace", defaultShutdownGrace))
	if err != nil {
		grace = invalidDuration // Validate reports it
	}
	cfg.ShutdownGrace = grace
	fs.Func("shutdown-grace", "on SIGTERM or SIGINT, how long running statements may go on before they are canceled: "+
		"milliseconds, or a duration such as 30s or 2m; 0 cancels them at once; idle sessions end at once (default "+defaultShutdownGrace+") ["+
		envName("shutdown-grace")+"]",
		func(v string) error {
			d, err := parseGrace(v)
			cfg.ShutdownGrace = d
			return err
		})
	integer(&cfg.MaxMessageSize, "max-message-size", sqlfront.DefaultMaxMessageSize, "largest client message in bytes")
	integer(&cfg.Threads, "threads", 0, "DuckDB worker threads (0: one per core)")
	str(&cfg.MemoryLimit, "memory-limit", "", "memory for DuckDB and the large buffers Mallard reserves (a pivot's result) together, such as 4GB; DuckDB's memory_limit is the rest (default: 80% of RAM)")
	integer(&cfg.MaxTrainings, "max-trainings", runtime.NumCPU(), "training runs at once; more wait in a queue")
	str(&cfg.Mpirun, "mpirun", "mpirun", "the mpirun that starts training across ranks (ranks := N), a path or a name looked up in PATH")
	str(&cfg.MPIHostfile, "mpi-hostfile", "", "a hostfile mpirun places the ranks of ranks := N with (default: this host)")
	str(&cfg.Launcher, "launcher", "", "a command template that starts the ranks of ranks := N instead of mpirun, run by sh, "+
		"with {ranks}, {worker} and {job} replaced (such as 'srun -n {ranks} {worker} train-worker --job {job}')")
	str(&cfg.JobDir, "job-dir", "", "where runs with ranks := N write their jobs, on a file system every host shares (default: the database's path with .jobs added; none for :memory:)")
	cfg.DataDirs = filepath.SplitList(env("data-dir", ""))
	fs.Func("data-dir", "a directory whose files SQL may read and write (read_csv, COPY TO a file, ATTACH); repeat for more. "+
		"No other server file is reachable ["+envName("data-dir")+", a list separated by "+string(filepath.ListSeparator)+"]",
		func(dir string) error {
			if !dataDirGiven {
				cfg.DataDirs, dataDirGiven = nil, true // the flag replaces the environment's list
			}
			cfg.DataDirs = append(cfg.DataDirs, dir)
			return nil
		})
	str(&cfg.BackupDir, "backup-dir", "", "where SELECT mallard.backup('name') writes name.duckdb, created on first use; SQL may also read and write "+
		"its files as a -data-dir's (default: a backups directory beside the database file; none for :memory:)")
	str(&cfg.HTTP, "http", defaultHTTP, "address of the dashboard (HTTP, HTTPS with TLS on), or '' for none")
	return fs
}

func envName(flagName string) string {
	return "MALLARD_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func env(flagName, def string) string {
	if v, ok := os.LookupEnv(envName(flagName)); ok {
		return v
	}
	return def
}

func parseConfig(args []string, out io.Writer) (Config, error) {
	var cfg Config
	fs := newFlags(&cfg, out)
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "password" || f.Name == "reader-password" {
			cfg.passwordFlags = append(cfg.passwordFlags, "-"+f.Name)
		}
	})
	if err := cfg.readPasswordFiles(); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// readPasswordFiles sets Password and ReaderPassword from PasswordFile
// and ReaderPasswordFile: the file's first line, without its line end.
// A password given both ways, or an empty file, is an error.
func (c *Config) readPasswordFiles() error {
	for _, p := range []struct {
		flag, file string
		password   *string
	}{{"password", c.PasswordFile, &c.Password}, {"reader-password", c.ReaderPasswordFile, &c.ReaderPassword}} {
		if p.file == "" {
			continue
		}
		if *p.password != "" {
			return fmt.Errorf("-%s-file %q and -%s (or %s) both give the password: give one", p.flag, p.file, p.flag, envName(p.flag))
		}
		b, err := os.ReadFile(p.file)
		if err != nil {
			return fmt.Errorf("-%s-file: %w", p.flag, err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		if *p.password = strings.TrimSuffix(line, "\r"); *p.password == "" {
			return fmt.Errorf("-%s-file %q: the first line is empty; want the password", p.flag, p.file)
		}
	}
	return nil
}

// warnPasswordFlags logs a warning for each password given on the command line.
func (c Config) warnPasswordFlags(log *slog.Logger) {
	for _, f := range c.passwordFlags {
		log.Warn("password given on the command line, where the process list shows it to every local user; use "+f+"-file or "+
			envName(strings.TrimPrefix(f, "-"))+" instead", "flag", f)
	}
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	host, _, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("-listen %q: %v", c.Listen, err)
	}
	if c.Password == "" && !isLoopback(host) {
		return fmt.Errorf("-listen %q is not a loopback address: set -password (or MALLARD_PASSWORD) so that clients must authenticate", c.Listen)
	}
	if c.HTTP != "" {
		host, _, err := net.SplitHostPort(c.HTTP)
		if err != nil {
			return fmt.Errorf("-http %q: %v", c.HTTP, err)
		}
		if c.Password == "" && !isLoopback(host) {
			return fmt.Errorf("-http %q is not a loopback address: set -password (or MALLARD_PASSWORD) so that the dashboard asks for it", c.HTTP)
		}
	}
	if c.ReaderPassword != "" {
		if c.Password == "" {
			return errors.New("-reader-password needs -password: without one every client is trusted as the owner")
		}
		if c.ReaderUser == "" || c.ReaderUser == c.User {
			return fmt.Errorf("-reader-user %q: want a name other than -user %q", c.ReaderUser, c.User)
		}
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" { // "" is text
		return fmt.Errorf("-log-format %q: want text or json", c.LogFormat)
	}
	if c.LogMinDuration == invalidDuration {
		return fmt.Errorf("-log-min-duration-statement (%s): want milliseconds, a duration such as 250ms, 0 or -1", envName("log-min-duration-statement"))
	}
	if c.ShutdownGrace == invalidDuration {
		return fmt.Errorf("-shutdown-grace (%s): want milliseconds, or a duration such as 30s, 0 or more", envName("shutdown-grace"))
	}
	if _, ok := logLevels[c.LogLevel]; !ok {
		return fmt.Errorf("-log-level %q: want debug, info, warn or error", c.LogLevel)
	}
	if c.TLS != "off" && c.TLS != "self-signed" {
		return fmt.Errorf("-tls %q: want off or self-signed", c.TLS)
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return errors.New("-tls-cert and -tls-key go together")
	}
	if c.RequireTLS && c.TLS == "off" && c.TLSCert == "" {
		return errors.New("-require-tls needs TLS: set -tls self-signed or -tls-cert and -tls-key")
	}
	if c.Launcher != "" {
		if err := training.CheckLauncher(c.Launcher); err != nil {
			return fmt.Errorf("-launcher %q: %v", c.Launcher, err)
		}
		if c.MPIHostfile != "" {
			return errors.New("-mpi-hostfile is mpirun's, and -launcher replaces mpirun: name the hosts in the launcher's template")
		}
	}
	if c.StatementTimeout < 0 {
		return errors.New("-statement-timeout: want a duration such as 30s, or 0")
	}
	if c.StatementStats < 0 {
		return fmt.Errorf("-stat-statements-max %d: want 0 (off) or more", c.StatementStats)
	}
	if c.AuthenticationTimeout < 0 {
		return fmt.Errorf("-authentication-timeout (%s): want a duration such as 60s (0: the default, 60s)", envName("authentication-timeout"))
	}
	if c.AuthDelay < 0 {
		return fmt.Errorf("-auth-delay (%s): want a duration such as 100ms (0: the default)", envName("auth-delay"))
	}
	if c.MaxStartups < 0 {
		return fmt.Errorf("-max-startups %d: want 0 (as -max-connections) or more", c.MaxStartups)
	}
	if c.QuerySize != 0 && c.QuerySize < 100 {
		return fmt.Errorf("-track-activity-query-size %d: want at least 100 (bytes), or 0 for the default", c.QuerySize)
	}
	if c.MaxPrepared < 0 {
		return fmt.Errorf("-max-prepared-statements %d: want at least 1, or 0 for the default", c.MaxPrepared)
	}
	if c.MaxConnections < 1 {
		return fmt.Errorf("-max-connections %d: want at least 1", c.MaxConnections)
	}
	if c.MaxMessageSize < 1024 {
		return fmt.Errorf("-max-message-size %d: want at least 1024 bytes", c.MaxMessageSize)
	}
	if c.MaxTrainings < 1 {
		return fmt.Errorf("-max-trainings %d: want at least 1", c.MaxTrainings)
	}
	if c.Threads < 0 {
		return fmt.Errorf("-threads %d: want 0 or more", c.Threads)
	}
	if c.DB == "" {
		return errors.New("-db is empty: give a file name or :memory:")
	}
	for _, dir := range c.DataDirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-data-dir %q is not a directory", dir)
		}
	}
	if fi, err := os.Stat(c.BackupDir); c.BackupDir != "" && err == nil && !fi.IsDir() {
		return fmt.Errorf("-backup-dir %q is not a directory", c.BackupDir)
	}
	return nil
}

// storage is the served database's configuration: sandboxed to the data
// directories and the backup directory.
func (c Config) storage() (storage.Config, error) {
	backupDir, err := c.backupDir()
	if err != nil {
		return storage.Config{}, fmt.Errorf("-backup-dir %q: %w", c.BackupDir, err)
	}
	return storage.Config{Path: c.DB, Threads: c.Threads, MemoryLimit: c.MemoryLimit, Sandbox: true, DataDirs: c.DataDirs,
		SandboxHint: c.sandboxHint(), BackupDir: backupDir}, nil
}

// backupDir is the absolute backup directory: -backup-dir, or backups
// beside the database file; "" for an in-memory database without one.
func (c Config) backupDir() (string, error) {
	switch {
	case c.BackupDir != "":
		return filepath.Abs(c.BackupDir)
	case c.DB == storage.MemoryPath:
		return "", nil
	}
	db, err := filepath.Abs(c.DB)
	return filepath.Join(filepath.Dir(db), "backups"), err
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError,
}

func (c Config) logLevel() slog.Level { return logLevels[c.LogLevel] }

// logger writes the server's log to out in the configured format and level.
func (c Config) logger(out io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.logLevel()}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(out, opts))
	}
	return slog.New(slog.NewTextHandler(out, opts))
}

// invalidDuration marks a duration flag that did not parse.
const invalidDuration = time.Duration(math.MinInt64)

// parseMinDuration reads -log-min-duration-statement: whole milliseconds
// as Postgres takes them (-1 for off), or a Go duration such as 250ms.
func parseMinDuration(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		if ms < -1 || ms > math.MaxInt64/int64(time.Millisecond) {
			return invalidDuration, fmt.Errorf("%d: want -1 (off), 0 (every statement) or a positive number of milliseconds", ms)
		}
		if ms == -1 {
			return -1, nil
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return invalidDuration, fmt.Errorf("%q: want milliseconds such as 250, a duration such as 250ms or 2s, 0 (every statement) or -1 (off)", v)
	}
	return d, nil
}

// defaultShutdownGrace is -shutdown-grace's default, as the flag reads it.
const defaultShutdownGrace = "30s"

// parseGrace reads -shutdown-grace: whole milliseconds, as Postgres reads
// a duration without a unit, or a Go duration such as 30s; never negative.
func parseGrace(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		if ms < 0 || ms > math.MaxInt64/int64(time.Millisecond) {
			return invalidDuration, fmt.Errorf("%d: want 0 or a positive number of milliseconds", ms)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return invalidDuration, fmt.Errorf("%q: want milliseconds such as 30000, or a duration such as 30s or 2m, 0 or more", v)
	}
	return d, nil
}

// slowStatement is sqlfront's Config.SlowStatement for LogMinDuration.
func (c Config) slowStatement() time.Duration {
	switch {
	case c.LogMinDuration < 0:
		return 0
	case c.LogMinDuration == 0:
		return time.Nanosecond
	}
	return c.LogMinDuration
}

// minDurationText is LogMinDuration as the start-up line shows it.
func minDurationText(d time.Duration) string {
	if d < 0 {
		return "off"
	}
	return d.String()
}

// logSettings are the settings the start-up log line records; never a password.
func (c Config) logSettings() []any {
	return []any{"db", c.DB, "http", c.HTTP, "max_connections", c.MaxConnections, "max_startups", c.MaxStartups,
		"authentication_timeout", c.AuthenticationTimeout.String(), "auth_delay", c.AuthDelay.String(), "statement_timeout", c.StatementTimeout.String(),
		"log_level", c.LogLevel, "log_min_duration_statement", minDurationText(c.LogMinDuration), "threads", c.Threads,
		"memory_limit", c.MemoryLimit, "max_trainings", c.MaxTrainings, "data_dirs", c.DataDirs, "backup_dir", c.BackupDir,
		"stat_statements_max", c.StatementStats, "reader", c.ReaderPassword != "", "require_tls", c.RequireTLS, "shutdown_grace", c.ShutdownGrace.String()}
}

// frontend builds the wire server's configuration.
func (c Config) frontend(version string) (sqlfront.Config, error) {
	fc := sqlfront.Config{MaxMessageSize: c.MaxMessageSize, ServerVersion: "15.0 (" + version + ")",
		RequireTLS: c.RequireTLS, MaxConnections: c.MaxConnections, StatementTimeout: c.StatementTimeout,
		AuthenticationTimeout: c.AuthenticationTimeout, MaxStartups: c.MaxStartups, AuthDelay: c.AuthDelay,
		SlowStatement: c.slowStatement(), StatementStats: c.StatementStats,
		QuerySize: c.QuerySize, MaxPrepared: c.MaxPrepared}
	var err error
	switch {
	case c.TLSCert != "":
		fc.TLS, err = sqlfront.LoadTLS(c.TLSCert, c.TLSKey)
	case c.TLS == "self-signed":
		fc.TLS, err = sqlfront.SelfSignedTLS("localhost")
	}
	if err != nil {
		return fc, err
	}
	if c.Password != "" {
		if fc.Credentials, err = sqlfront.NewCredentials(c.User, c.Password); err != nil {
			return fc, err
		}
	}
	if c.ReaderPassword != "" {
		if fc.Reader, err = sqlfront.NewCredentials(c.ReaderUser, c.ReaderPassword); err != nil {
			return fc, err
		}
	}
	return fc, nil
}

// sandboxHint is the hint of a statement refused a file outside the data
// directories: which they are, and the flag that adds one.
func (c Config) sandboxHint() string {
	backups := ""
	if dir, err := c.backupDir(); err == nil && dir != "" {
		backups = " Files under the backup directory " + dir + " (--backup-dir) are reachable too."
	}
	if len(c.DataDirs) == 0 {
		return "The server reads and writes no file for SQL until it is started with --data-dir DIR (or " +
			envName("data-dir") + "); then name files under DIR by their absolute path." + backups
	}
	return "SQL may read and write only files under the --data-dir directories (" + strings.Join(c.DataDirs, ", ") +
		"); name them by their absolute path, or restart the server with another --data-dir." + backups
}
