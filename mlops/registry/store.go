//go:build duckdb_arrow

package registry

import (
	"context"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/storage/registrystore"
)

// Store is where the registry keeps its rows: the tables of the mlops
// schema. The registry decides and words the errors; the store only reads
// and writes, and reports a missing row with found false. Package
// storage/registrystore implements it over the database (see New).
type Store interface {
	lookups
	// Setup creates the tables where they are missing.
	Setup(ctx context.Context) error
	// Update runs f in one transaction: committed if f returns nil.
	Update(ctx context.Context, f func(tx Tx) error) error

	Versions(ctx context.Context, name string) ([]Version, error)
	Version(ctx context.Context, ref mlops.Ref) (v Version, found bool, err error)
	Kinds(ctx context.Context, name string) ([]string, error)
	LatestWithWeights(ctx context.Context, name string) (int, error)
	Runs(ctx context.Context, limit int) ([]Run, error)
	Run(ctx context.Context, id int64) (u Run, found bool, err error)
	Metrics(ctx context.Context, id int64) ([]Metric, error)
	Report(ctx context.Context, ref mlops.Ref) (data string, found bool, err error)
	State(ctx context.Context) (string, error)
	Unfinished(ctx context.Context) ([]int64, error)
	Unended(ctx context.Context, ids []int64) (int, error)
	Weights(ctx context.Context, ref mlops.Ref) (w registrystore.Weights, found bool, err error)
	ArtifactParts(ctx context.Context, ref mlops.Ref, sum string, part func(sum string, size int64, data []byte)) error
}

// lookups are the reads the registry makes both outside and inside a
// transaction.
type lookups interface {
	Deployed(ctx context.Context, name string) (version int, testLoss *float64, err error)
	ValLoss(ctx context.Context, ref mlops.Ref) (*float64, error)
	VersionState(ctx context.Context, ref mlops.Ref) (kind, status string, found bool, err error)
	VersionNumbers(ctx context.Context, name string) []int
	HasModel(ctx context.Context, name string) bool
}

// Tx is one transaction of the store's: the registry's writes.
type Tx interface {
	lookups
	Recover(ctx context.Context) error
	MarkInterrupted(ctx context.Context, ids []int64) error
	QueueRun(ctx context.Context, r registrystore.NewRun) (int64, error)
	NextVersion(ctx context.Context, name string) (int, error)
	StartVersion(ctx context.Context, v registrystore.NewVersion) error
	AddEpoch(ctx context.Context, id int64, m Metric, bestEpoch int, bestTest float64) error
	AddArtifactPart(ctx context.Context, p registrystore.ArtifactPart) error
	PointTo(ctx context.Context, ref mlops.Ref, epoch, size int, sum string) error
	DropWeights(ctx context.Context, ref mlops.Ref) error
	SetReport(ctx context.Context, ref mlops.Ref, data string) error
	MarkReady(ctx context.Context, ref mlops.Ref, metrics string, testLoss float64, valLoss *float64) error
	SetVersionStatus(ctx context.Context, ref mlops.Ref, status string) error
	SucceedRun(ctx context.Context, id int64) error
	EndRun(ctx context.Context, id int64, status, message string) error
	SetDeployed(ctx context.Context, ref mlops.Ref, action string) error
	Redeploy(ctx context.Context, name string, version int) error
	PreviousDeployment(ctx context.Context, name string, not int) (seq int64, version int, found bool, err error)
	UndoAfter(ctx context.Context, name string, seq int64) error
	ActiveRun(ctx context.Context, ref mlops.Ref) (run int64, found bool, err error)
	Delete(ctx context.Context, ref mlops.Ref) (int64, error)
}

// Version, Run and Metric are the rows the registry reads, as its store
// has them.
type (
	Version = registrystore.Version
	Run     = registrystore.Run
	Metric  = registrystore.Metric
)

// engineStore is registrystore's store as a Store: its transactions are
// registrystore.Tx, which is a Tx.
type engineStore struct{ *registrystore.Store }

func (s engineStore) Update(ctx context.Context, f func(tx Tx) error) error {
	return s.Store.Update(ctx, func(tx *registrystore.Tx) error { return f(tx) })
}
