//go:build duckdb_arrow

// Package registry is Mallard's model registry: model versions, training
// runs and their metrics, artifacts, reports and deployments, kept in the
// mlops schema of the database. It owns the lifecycle of a training run
// (Begin, then Epoch and Checkpoint, then Finish or Fail) and of a
// version (Deploy, Rollback, Drop), and the reads the SQL functions and
// the dashboard make of them. It knows nothing of SQL functions or the
// wire: its errors wrap the sentinels of errors.go, and callers word them.
package registry

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/registrystore"
)

// Statuses of models and training runs that Go code sets or checks; the
// rest (queued, succeeded, interrupted) appear only in the SQL that sets
// them. Models: training, ready, failed, canceled, interrupted. Runs:
// queued, training, succeeded, failed, canceled, interrupted.
const (
	StatusTraining = "training"
	StatusReady    = "ready"
	StatusFailed   = "failed"
	StatusCanceled = "canceled"
)

// Registry keeps model versions, training runs and their metrics,
// artifacts and deployments in the mlops schema of a database. One
// process has one Registry per database: it serialises the writes.
type Registry struct {
	store   Store
	runs    *mlops.Runs
	version string // Mallard's, recorded with every model

	// mu serialises the registry's writes: DuckDB fails a transaction that
	// updates a row another open transaction updated, and every write comes
	// from this process.
	mu sync.Mutex

	cache modelCache
}

// Options configure New.
type Options struct {
	// MaxTrainings is how many training runs may run at once; the others
	// wait in a queue. 0 means the number of CPUs.
	MaxTrainings int
	// Version is Mallard's, recorded with every model.
	Version string
	// Log records each training run's queueing, start and end; nil records nothing.
	Log *slog.Logger
}

// New returns the registry of db. Setup creates its tables.
func New(db *storage.DB, opts Options) *Registry {
	if opts.MaxTrainings <= 0 {
		opts.MaxTrainings = runtime.NumCPU()
	}
	return &Registry{store: engineStore{registrystore.New(db)}, runs: mlops.NewRuns(opts.MaxTrainings, opts.Log), version: opts.Version}
}

// Setup creates the registry's tables where they are missing, keeping
// the rows of a models table from before the registry, and marks the
// training runs a stopped server left unfinished as interrupted. It is
// safe to call on a database that has them from an earlier run.
func (r *Registry) Setup(ctx context.Context) error {
	if err := r.store.Setup(ctx); err != nil {
		return err
	}
	if err := r.tx(ctx, func(tx Tx) error { return tx.Recover(ctx) }); err != nil {
		return fmt.Errorf("recover training runs: %w", err)
	}
	return nil
}

// Cancel stops training run id at its next batch with cause; false if
// this process is not running it (it ended, or never was).
func (r *Registry) Cancel(id int64, cause error) bool { return r.runs.Cancel(id, cause) }

// modelCache keeps the last few decoded model artifacts, by version and
// checksum, most recently used first.
type modelCache struct {
	mu      sync.Mutex
	entries []cached
}

type cached struct {
	key   string
	value any
}

// cacheSize is how many decoded models modelCache keeps.
const cacheSize = 4

func (c *modelCache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			return e.value, true
		}
	}
	return nil, false
}

func (c *modelCache) put(key string, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = slices.DeleteFunc(c.entries, func(e cached) bool { return e.key == key })
	c.entries = slices.Insert(c.entries, 0, cached{key, value})
	if len(c.entries) > cacheSize {
		clear(c.entries[cacheSize:])
		c.entries = c.entries[:cacheSize]
	}
}

// tx runs f in one transaction of the store under the registry's write
// lock: DuckDB fails a transaction that updates a row another open
// transaction updated, and every write comes from this process.
func (r *Registry) tx(ctx context.Context, f func(Tx) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.store.Update(ctx, f)
}
