//go:build duckdb_arrow

// Package functions holds Mallard's SQL functions: thin adapters that
// check their arguments, read their input through storage as Arrow
// batches, call mlops for the work and write DuckDB data chunks. Register
// installs them all; it is the one place that knows the list.
package functions

import (
	"context"
	"fmt"
	"slices"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/prep"
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
	if err := prep.CreateScalerStore(ctx, conn); err != nil {
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
