package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// Version is Mallard's release, reported in server_version.
const Version = "0.1.0"

const usage = `Mallard: SQL analytics and machine learning on DuckDB, spoken over the Postgres protocol.

Usage:
  mallard serve [flags]   start the server
  mallard train-worker --job DIR   run a training job as one MPI rank
  mallard backup --db FILE --to PATH
                          copy a database no server has open into the new
                          file PATH (for a served one: SELECT mallard.backup(...))
  mallard restore --from BACKUP --db FILE
                          replace the database FILE, which no server may
                          have open, with a copy of the backup BACKUP
  mallard version         print the version (also --version)

On SIGTERM or SIGINT the server stops accepting clients and ends idle
sessions at once; running statements may complete for --shutdown-grace,
then they are canceled, training runs are recorded interrupted (resume
them with train_gat(..., resume := 'model') or train_recommender(...,
resume := 'model')), the database is checkpointed, and mallard exits 0.

Every flag can also be set by the environment variable in brackets; a flag
given on the command line wins.

Flags of serve:
`

// Run runs the command line args; main only wires signals and exit codes.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		newFlags(&Config{}, stderr).PrintDefaults()
		return flag.ErrHelp
	}
	switch args[0] {
	case "serve":
		cfg, err := parseConfig(args[1:], stderr)
		if err != nil {
			return err
		}
		return serve(ctx, cfg, stderr)
	case "train-worker":
		return trainWorker(ctx, args[1:], stdout, stderr)
	case "backup":
		return backup(ctx, args[1:], stdout, stderr)
	case "restore":
		return restore(ctx, args[1:], stdout, stderr)
	case "version", "-version", "--version", "-v":
		fmt.Fprintf(stdout, "mallard %s (DuckDB %s)\n", Version, storage.Version())
		return nil
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		newFlags(&Config{}, stdout).PrintDefaults()
		return nil
	}
	return fmt.Errorf("unknown command %q (try mallard --help)", args[0])
}

func serve(ctx context.Context, cfg Config, logOut io.Writer) error {
	log := cfg.logger(logOut)
	cfg.warnPasswordFlags(log)
	frontCfg, err := cfg.frontend("Mallard " + Version + ", DuckDB " + storage.Version())
	if err != nil {
		return err
	}
	// Both addresses are taken before the database is opened, so that a
	// server that cannot listen leaves no database file behind.
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	dashLn, err := listenDashboard(cfg, log)
	if err != nil {
		ln.Close()
		return err
	}
	closeListeners := func() {
		ln.Close()
		if dashLn != nil {
			dashLn.Close()
		}
	}
	dbCfg, err := cfg.storage()
	if err != nil {
		closeListeners()
		return err
	}
	// Metrics are served on the dashboard's port, and kept only if they are.
	srv, err := server.Open(ctx, server.Config{DB: dbCfg, Front: frontCfg, MaxTrainings: cfg.MaxTrainings,
		Version: Version, Metrics: dashLn != nil, Log: log, GoHeapMargin: goHeapMargin(cfg.MemoryLimit),
		MPI: training.MPI{Mpirun: cfg.Mpirun, Hostfile: cfg.MPIHostfile, Launcher: cfg.Launcher, JobDir: cfg.JobDir}})
	if err != nil {
		closeListeners()
		return err
	}
	mon := monitor{ready: func(ctx context.Context) error {
		if !srv.Front.Accepting() {
			return errNotAccepting
		}
		return srv.Front.CheckSession(ctx)
	}}
	if srv.Metrics != nil {
		mon.metrics = srv.Metrics.Handler()
	}
	dash := startDashboard(dashLn, frontCfg, srv, mon, log)
	log.Info("mallard listening", append([]any{"addr", ln.Addr().String(), "tls", frontCfg.TLS != nil,
		"auth", map[bool]string{true: "scram-sha-256", false: "trust"}[frontCfg.Credentials != nil]}, cfg.logSettings()...)...)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	if errors.Is(err, sqlfront.ErrServerClosed) {
		err = nil
	}
	err = errors.Join(err, stopping{log: log, grace: cfg.ShutdownGrace, srv: srv.Front, dash: dash, db: srv.DB, reg: srv.Registry}.stop())
	log.Info("mallard stopped", "err", err)
	return err
}

// goHeapMargin is the Go heap Mallard allows beyond what its buffers
// reserve from the memory budget (see server.Config.GoHeapMargin): 512
// MiB when the operator bounded the server's memory (--memory-limit),
// none otherwise or when the operator set the runtime's own GOMEMLIMIT.
// Without a limit it would not pay: at 10,000 catalogue series the
// peak RSS of train_gat was 866 MB without it and 914 MB with it
// (docs/catalogue.md).
func goHeapMargin(memoryLimit string) int64 {
	if memoryLimit == "" || os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	return 512 << 20
}
