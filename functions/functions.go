//go:build duckdb_arrow

// Package functions holds Mallard's SQL functions: thin adapters that
// check their arguments, read their input through storage as Arrow
// batches, call mlops for the work and write DuckDB data chunks. Register
// installs them all; it is the one place that knows the list.
package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// callerArgument is the hidden named argument the planner adds to calls of
// Mallard's table functions (see storage.CallerVariable).
const callerArgument = storage.CallerVariable

// tableFunction is one of Mallard's table functions: its signature and
// the bind step, which gets the arguments parse checked, refuses a call
// that writes from a read-only caller and describes the output (see
// typedFunction).
type tableFunction struct {
	sig  signature
	bind func(c *call, a args) (*table, error)
}

// tableFunctions are Mallard's table functions, by name.
func tableFunctions() map[string]tableFunction {
	return map[string]tableFunction{
		"pivot_entity_time":   pivotFunction(),
		"rescale":             rescaleFunction(),
		"unscale":             unscaleFunction(),
		"train_gat":           trainGATFunction(),
		"evaluate":            evaluateFunction(),
		"detect_anomalies":    detectAnomaliesFunction(),
		"evaluate_entities":   evaluateEntitiesFunction(),
		"forecast":            forecastFunction(),
		"attention":           attentionFunction(),
		"train_recommender":   trainRecommenderFunction(),
		"recommend":           recommendFunction(),
		"recommend_for":       recommendForFunction(),
		"similar_items":       similarItemsFunction(),
		trainClassifierName:   trainClassifierFunction(),
		trainRegressorName:    trainRegressorFunction(),
		predictName:           predictFunction(),
		confusionMatrixName:   confusionMatrixFunction(),
		featureImportanceName: featureImportanceFunction(),
		loadMNISTName:         loadMNISTFunction(),
		misclassifiedName:     misclassifiedFunction(),
	}
}

// Names are the names of Mallard's SQL functions, as the planner and the
// wire side need them (see plan.Catalog and sqlfront.Config).
type Names struct {
	// Table maps the table functions to their named arguments.
	Table map[string][]string
	// Positional maps the table functions to their positional arguments, in order.
	Positional map[string][]string
	// Operations are the registry's operations, mlops.<name>.
	Operations []string
	// Scalars are the scalar functions that take the calling session.
	Scalars []string
	// Progressive are the table functions whose rows report progress, one
	// per training epoch, and should reach the client as they are produced.
	Progressive []string
	// Signatures are the table functions as the catalog shows them, by name.
	Signatures []Signature
}

// Surface is Mallard's SQL surface: the names of the functions Register
// installs.
func Surface() Names {
	table, positional := map[string][]string{}, map[string][]string{}
	var sigs []Signature
	for name, f := range tableFunctions() {
		table[name] = f.sig.namedArguments()
		positional[name] = f.sig.positionalArguments()
		sigs = append(sigs, f.sig.catalogSignature())
	}
	slices.SortFunc(sigs, func(x, y Signature) int { return strings.Compare(x.Name, y.Name) })
	return Names{Table: table, Positional: positional, Operations: operationNames(), Scalars: []string{recommendationsName},
		Progressive: []string{trainGATName, trainRecommenderName, trainClassifierName, trainRegressorName}, Signatures: sigs}
}

// Planner turns client SQL into SQL DuckDB runs: the functions plan a
// query given as their source as the server plans the client's statements.
type Planner func(query string) string

// Options configure Register.
type Options struct {
	// Plan plans the queries given as sources; nil runs them as given.
	Plan Planner
	// Registry is where the functions keep models and training runs; its
	// tables must exist (see registry.Registry.Setup).
	Registry *registry.Registry
	// MPI configures training across MPI ranks (ranks := N).
	MPI training.MPI
}

// Register installs Mallard's functions in db, and the mlops.scalers
// table where they keep saved scalers. It is safe to call on a database
// that already has them from an earlier run.
func Register(ctx context.Context, db *storage.DB, opts Options) error {
	if opts.Registry == nil {
		return fmt.Errorf("register functions: no registry")
	}
	e := &env{db: db, plan: opts.Plan, reg: opts.Registry, mpi: opts.MPI}
	if e.plan == nil {
		e.plan = func(q string) string { return q }
	}
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	defer conn.Close()
	if err := createStore(ctx, conn); err != nil {
		return err
	}
	for name, f := range tableFunctions() {
		if err := duckdb.RegisterTableUDF(conn, name, f.udf(e)); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	for name, op := range operations() {
		if err := duckdb.RegisterScalarUDF(conn, opName(name), op.udf(e)); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	if err := registerRecommendations(conn, e); err != nil {
		return fmt.Errorf("register %s: %w", recommendationsName, err)
	}
	return registerScalars(conn)
}

// env is what every call of Mallard's functions shares.
type env struct {
	db   *storage.DB
	plan Planner
	reg  *registry.Registry
	mpi  training.MPI
}

// call is one invocation of a table function.
type call struct {
	*env
	caller storage.Caller
	// setup makes a connection of the function's resolve names as the
	// caller's does: its schema and search path.
	setup []string
	// unknown are the named arguments the call gave that the function
	// does not have (see signature.refuseUnknown).
	unknown []string
	// positional is the number of positional values the call gave when
	// the function takes another number; -1 otherwise (see
	// signature.refusePositional).
	positional int
}

// newCall reads the caller argument the planner adds (see
// planner.CallerArgument); without one, the call has no caller session.
func newCall(e *env, arg any) *call {
	var caller struct {
		Token      string   `json:"id"`
		Schema     string   `json:"schema"`
		SearchPath string   `json:"search_path"`
		Unknown    []string `json:"unknown"`
		Positional *int     `json:"positional"`
	}
	if text, ok := arg.(string); ok {
		_ = json.Unmarshal([]byte(text), &caller)
	}
	c := &call{env: e, caller: e.db.CallerOf(caller.Token), unknown: caller.Unknown, positional: -1}
	if caller.Positional != nil {
		c.positional = *caller.Positional
	}
	if caller.Schema != "" {
		c.setup = append(c.setup, "SET schema = "+quote(caller.Schema))
	}
	if caller.SearchPath != "" {
		c.setup = append(c.setup, "SET search_path = "+quote(caller.SearchPath))
	}
	return c
}

// read runs query on a connection of its own, as the caller would and
// with the caller's rights.
func (c *call) read(ctx context.Context, query string) (*storage.Reader, error) {
	return c.caller.Read(ctx, query, c.setup...)
}

// mayWrite fails with 42501 when the caller is read-only: fn would write.
func (c *call) mayWrite(fn string) error {
	if !c.caller.ReadOnly() {
		return nil
	}
	return sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied for function %s: this session is read-only", fn).
		WithHint("A read-only role may call forecast, recommend, predict, evaluate and attention; connect as the owner to train, save or deploy.")
}

// ctx is the context of the calling statement now: a prepared statement
// is bound when prepared and run later, under another context.
func (c *call) ctx() context.Context { return c.caller.Context() }

func (f tableFunction) udf(e *env) duckdb.ChunkTableFunction {
	return duckdb.ChunkTableFunction{
		Config: f.sig.config(),
		BindArguments: func(named map[string]any, positional ...any) (duckdb.ChunkTableSource, error) {
			c := newCall(e, named[callerArgument])
			t, err := f.bindCall(c, named, positional)
			if err != nil {
				return nil, c.caller.Fail(err)
			}
			t.caller = c.caller
			return t, nil
		},
	}
}

// bindCall checks and parses the arguments of one call and binds it.
func (f tableFunction) bindCall(c *call, named map[string]any, positional []any) (t *table, err error) {
	var a args
	err = f.sig.refuseUnknown(c.unknown)
	if err == nil {
		err = f.sig.refusePositional(c.positional)
	}
	if err == nil {
		a, err = f.sig.parse(named, positional)
	}
	if err != nil {
		return nil, err
	}
	if t, err = f.bind(c, a); err != nil {
		return nil, err
	}
	if f.sig.result != nil {
		t.cols = columnInfos(f.sig.result)
	}
	return t, nil
}

// table is a table function's output: its columns, and open, which starts
// one execution. A prepared statement binds once and may run many times;
// each run gets its own state from open.
type table struct {
	cols   []duckdb.ColumnInfo
	open   func(ctx context.Context) (*run, error)
	caller storage.Caller

	mu      sync.Mutex // fill runs on one DuckDB thread; finish may come from the statement's end
	started bool
	cur     *run
}

// run is one execution of a table function: fill writes the next rows into
// a chunk and returns how many (0 at the end). close, if set, releases what
// fill holds: at the end, on error, when the calling statement ends, or at
// the latest when the run is garbage collected.
type run struct {
	fill  func(chunk duckdb.DataChunk) (int, error)
	close func()
	done  bool
	stop  func() bool
}

func (t *table) ColumnInfos() []duckdb.ColumnInfo     { return t.cols }
func (t *table) Cardinality() *duckdb.CardinalityInfo { return nil }

// Init prepares the next execution.
func (t *table) Init() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil {
		t.cur.finish()
	}
	t.cur, t.started = nil, false
}

func (t *table) FillChunk(chunk duckdb.DataChunk) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		t.started = true
		if err := t.start(); err != nil {
			return t.caller.Fail(err)
		}
	}
	r := t.cur
	n := 0
	if !r.done {
		var err error
		if n, err = r.fill(chunk); err != nil {
			r.finish()
			return t.caller.Fail(err)
		}
	}
	if n == 0 {
		r.finish()
	}
	return chunk.SetSize(n)
}

func (t *table) start() error {
	ctx := t.caller.Context()
	r, err := t.open(ctx)
	if err != nil {
		return err
	}
	t.cur = r
	if r.close != nil {
		// A canceled statement reports its cancel once close has run (a
		// training run has ended canceled), not while it still runs.
		release := t.caller.Hold()
		close := r.close
		r.close = sync.OnceFunc(func() {
			defer release()
			close()
		})
		runtime.AddCleanup(r, func(f func()) { f() }, r.close)
		r.stop = context.AfterFunc(ctx, func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			r.finish()
		})
	}
	return nil
}

func (r *run) finish() {
	if r.done {
		return
	}
	r.done = true
	if r.stop != nil {
		r.stop()
	}
	if r.close != nil {
		r.close()
	}
}
