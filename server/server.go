//go:build duckdb_arrow

// Package server assembles Mallard: the database, the model registry,
// Mallard's SQL functions, the Postgres wire side and the operator's
// functions (ops), in the order they need each other. It is the one place
// that knows the catalog they share; cmd/mallard and the test harnesses
// open a Server rather than wiring the parts themselves.
package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"runtime/debug"

	"github.com/mallard/mallard/functions"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/ops"
	"github.com/mallard/mallard/ops/metrics"
	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/planner/catalog"
	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// Config configures Open.
type Config struct {
	// DB is the database to open.
	DB storage.Config
	// Front configures the wire side; Open sets its catalog and its
	// progressive functions.
	Front sqlfront.Config
	// MaxTrainings is how many training runs may run at once; the others
	// wait in a queue. 0 means the number of CPUs.
	MaxTrainings int
	// Version is Mallard's, recorded with every model.
	Version string
	// Metrics, when set, collects the server's metrics (Server.Metrics)
	// and has the wire side report its sessions and statements to them.
	Metrics bool
	// Log records the server's events; nil records nothing.
	Log *slog.Logger
	// MPI configures training across MPI ranks (ranks := N). Its JobDir,
	// when empty, is DB.Path's name with ".jobs" added, beside the
	// database; an in-memory database has none. Its Version is Version.
	MPI training.MPI
	// GoHeapMargin, when above 0, has the Go runtime's soft memory limit
	// follow the memory budget: the bytes Mallard's large buffers have
	// reserved now plus this margin for what is not reserved (sessions,
	// batches in flight). Go's collector otherwise lets the heap grow to
	// twice its live size, which the budget does not count; under the
	// limit it collects sooner (spending at most half the CPU doing so,
	// the runtime's own cap) and returns freed memory to the system.
	// The limit is process-wide, so one server a process should set it
	// (cmd/mallard does: 512 MiB).
	GoHeapMargin int64
}

// Server is a Mallard server: its parts, opened and wired. Serve serves
// clients; Close stops it and closes the database.
type Server struct {
	DB       *storage.DB
	Registry *registry.Registry
	Front    *sqlfront.Server
	Metrics  *metrics.Metrics // nil unless Config.Metrics

	planner *planner.Planner
}

// Catalog is the catalog the wire side serves and its planner plans with:
// Postgres' system catalog, Mallard's functions and the operator's, and
// the statements that install the system catalog.
func Catalog() (plan.Catalog, []string) {
	cat, install := sqlfront.DefaultCatalog()
	names := functions.Surface()
	cat.Functions, cat.Positional, cat.Operations = names.Table, names.Positional, names.Operations
	cat.Scalars = append(names.Scalars, ops.Scalars()...)
	cat.Views = append(cat.Views, ops.Views()...)
	for _, f := range names.Signatures {
		cat.Signatures = append(cat.Signatures, planSignature(f))
	}
	return cat, append(install, catalog.Signatures(cat.Signatures)...)
}

// planSignature is f as the planner's catalog declares it.
func planSignature(f functions.Signature) plan.Signature {
	s := plan.Signature{Name: f.Name}
	for _, a := range f.Args {
		s.Args = append(s.Args, plan.Argument{Name: a.Name, Type: a.Type, Default: a.Default})
	}
	for _, c := range f.Result {
		s.Result = append(s.Result, plan.Column{Name: c.Name, Type: c.Type})
	}
	return s
}

// Open opens the database cfg.DB names and prepares it to serve: the
// registry's tables (marking runs a stopped server left unfinished as
// interrupted), Mallard's functions, the catalog and the operator's
// functions. It serves no one until Serve.
func Open(ctx context.Context, cfg Config) (*Server, error) {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.MPI.JobDir = jobDir(cfg)
	if cfg.MPI.JobDir != "" {
		cfg.DB.Protected = append(cfg.DB.Protected[:len(cfg.DB.Protected):len(cfg.DB.Protected)], cfg.MPI.JobDir)
	}
	db, err := storage.Open(ctx, cfg.DB, log)
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, db, cfg, log)
	if err != nil {
		return nil, errors.Join(err, db.Close(context.Background()))
	}
	return s, nil
}

func open(ctx context.Context, db *storage.DB, cfg Config, log *slog.Logger) (*Server, error) {
	s := &Server{DB: db}
	front := cfg.Front
	var cat plan.Catalog
	cat, front.CatalogSQL = Catalog()
	front.Progressive = functions.Surface().Progressive
	if cfg.Metrics {
		s.Metrics = metrics.New(db)
		front.Observer = s.Metrics
	}
	s.planner = planner.New(cat)
	s.Registry = registry.New(db, registry.Options{MaxTrainings: cfg.MaxTrainings, Version: cfg.Version,
		Log: log.With("component", "training")})
	if err := s.Registry.Setup(ctx); err != nil {
		return nil, err
	}
	mpi := cfg.MPI
	mpi.JobDir = jobDir(cfg)
	mpi.Version = cfg.Version
	opts := functions.Options{Plan: s.Plan, Registry: s.Registry, MPI: mpi}
	if err := functions.Register(ctx, db, opts); err != nil {
		return nil, err
	}
	// A database DuckDB invalidates is reopened (storage.DB.Reopen); what
	// lives in its memory rather than its file is installed again in the
	// order of this start-up: the registry (which marks the runs the old
	// instance was training interrupted), functions, the catalog
	// (sqlfront.New adds its own hook), ops.
	db.OnReopen(func(ctx context.Context) error {
		if err := s.Registry.Setup(ctx); err != nil {
			return err
		}
		return functions.Register(ctx, db, opts)
	})
	var err error
	if s.Front, err = sqlfront.New(ctx, front, Engine(db), s.planner, log); err != nil {
		return nil, err
	}
	if err := ops.Register(ctx, db, s.Front); err != nil {
		return nil, err
	}
	db.OnReopen(func(ctx context.Context) error { return ops.Register(ctx, db, s.Front) })
	if margin := cfg.GoHeapMargin; margin > 0 {
		db.Budget().Follow(func(reserved int64) { debug.SetMemoryLimit(reserved + margin) })
	}
	return s, nil
}

// Plan plans query as the wire side plans a client's statement: what
// Mallard's functions run as their source and the dashboard runs.
func (s *Server) Plan(query string) string { return s.planner.PlanOne(query).Text }

// Serve serves Postgres clients on ln until Close; then it returns
// sqlfront.ErrServerClosed.
func (s *Server) Serve(ln net.Listener) error { return s.Front.Serve(ln) }

// Close stops accepting clients, waits until ctx ends for the sessions to
// end (then ends them), and closes the database.
func (s *Server) Close(ctx context.Context) error {
	return errors.Join(s.Front.Shutdown(ctx), s.DB.Close(ctx))
}

// jobDir is cfg.MPI.JobDir, or by default the database's path with
// ".jobs" added; "" for an in-memory database.
func jobDir(cfg Config) string {
	if cfg.MPI.JobDir == "" && cfg.DB.Path != storage.MemoryPath && cfg.DB.Path != "" {
		return cfg.DB.Path + ".jobs"
	}
	return cfg.MPI.JobDir
}
