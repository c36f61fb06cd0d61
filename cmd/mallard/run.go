package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"

	"github.com/mallard/mallard/functions"
	"github.com/mallard/mallard/ops"
	"github.com/mallard/mallard/ops/metrics"
	"github.com/mallard/mallard/planner"
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
  mallard version         print the version (also --version)

On SIGTERM or SIGINT the server stops accepting clients and ends idle
sessions at once; running statements may complete for --shutdown-grace,
then they are canceled, training runs are recorded interrupted (resume
them with train_gat(..., resume := 'model')), the database is
checkpointed, and mallard exits 0.

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
	db, err := storage.Open(ctx, storage.Config{Path: cfg.DB, Threads: cfg.Threads, MemoryLimit: cfg.MemoryLimit,
		Sandbox: true, DataDirs: cfg.DataDirs, SandboxHint: cfg.sandboxHint()}, log)
	if err != nil {
		closeListeners()
		return err
	}
	frontCfg.Catalog, frontCfg.CatalogSQL = sqlfront.DefaultCatalog()
	mets := metrics.New(db)
	if dashLn != nil { // metrics are served on the dashboard's port, and kept only if they are
		frontCfg.Observer = mets
	}
	frontCfg.Catalog.Views = append(frontCfg.Catalog.Views, ops.Views()...)
	frontCfg.Functions = functions.TableFunctions()
	frontCfg.Progressive = functions.Progressive()
	frontCfg.Catalog.Functions = frontCfg.Functions
	frontCfg.Catalog.Operations = functions.Operations()
	frontCfg.Catalog.Scalars = append(functions.Scalars(), ops.Scalars()...)
	plan := planner.New(frontCfg.Catalog)
	opts := functions.Options{Plan: func(q string) string { return plan.PlanOne(q).Text }, MaxTrainings: cfg.MaxTrainings, Version: Version,
		Log: log.With("component", "training")}
	if err := functions.Register(ctx, db, opts); err != nil {
		closeListeners()
		db.Close(context.Background())
		return err
	}
	// A database DuckDB invalidates is reopened (storage.DB.Reopen); what
	// lives in its memory rather than its file is installed again in the
	// order of this start-up: functions, the catalog (sqlfront.New), ops.
	db.OnReopen(func(ctx context.Context) error { return functions.Register(ctx, db, opts) })
	srv, err := sqlfront.New(ctx, frontCfg, db, log)
	if err != nil {
		closeListeners()
		db.Close(context.Background())
		return err
	}
	if err := ops.Register(ctx, db, srv); err != nil {
		closeListeners()
		db.Close(context.Background())
		return err
	}
	db.OnReopen(func(ctx context.Context) error { return ops.Register(ctx, db, srv) })
	mon := monitor{metrics: mets.Handler(), ready: func(ctx context.Context) error {
		if !srv.Accepting() {
			return errNotAccepting
		}
		return db.SQL().PingContext(ctx)
	}}
	dash := startDashboard(dashLn, frontCfg, db, opts.Plan, mon, log)
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
	err = errors.Join(err, stopping{log: log, grace: cfg.ShutdownGrace, srv: srv, dash: dash, db: db}.stop())
	log.Info("mallard stopped", "err", err)
	return err
}
