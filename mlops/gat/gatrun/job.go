// Package gatrun is one execution of train_gat as the training
// lifecycle's model (see training.Model): the source read through the
// interfaces it declares here, the options that depend on the data
// (season, horizon, strategy) resolved, the network trained in this
// process or across MPI ranks, and the version's result (metrics, the
// artifact with its forecast state, the report) with the NOTICEs that
// say what the run chose. It holds no SQL: package functions binds the
// call, and storage/prep reads the source and stores the scaler.
package gatrun

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// Name is the SQL function a run executes, for messages.
const Name = "train_gat"

// Caller is the session that called train_gat: where the run's NOTICEs
// go, and its id for mlops.training_runs.
type Caller interface {
	Notice(message string)
	ID() uint64
}

// Source is the bound source a run reads: its size before it is read,
// then its values and time rows in time order.
type Source interface {
	EntityNames() []string
	TimeNames() []string
	Rows(ctx context.Context) (int64, error)
	Matrix(ctx context.Context) (series.Matrix, error)
	// TimeRows are the time columns of every row as text, with their
	// kinds (series.TimeInt, ...); nil when the source has none.
	TimeRows(ctx context.Context) (kinds []string, rows [][]string, err error)
}

// Scalers stores the scaler a run on a long source fits.
type Scalers interface {
	SaveScaler(ctx context.Context, s SavedScaler) error
	// DropUnlinkedScaler removes the scaler saved as name unless a
	// version that keeps weights links it.
	DropUnlinkedScaler(ctx context.Context, name string) error
}

// SavedScaler is a long source's scaler as it is saved.
type SavedScaler struct {
	Name                 string
	Scaler               scale.Scaler
	TimeColumns          []string
	TrainFraction        float64
	TrainRows, TotalRows int64
	Source, Fingerprint  string
}

// Job is one execution of train_gat, as the call bound it. Its exported
// fields are set before Read; the run resolves Config's data-dependent
// options in place.
type Job struct {
	Caller  Caller
	Source  Source
	Text    string // the source as the caller gave it
	Long    bool   // a long source, rescaled per entity by the run
	Scalers Scalers
	Config  gat.Config
	Name    string
	Scaler  string // the linked scaler's name; a long source's once saved
	Link    *Link
	Deploy  string
	// CheckpointEvery is 0 for a checkpoint at every new lowest
	// selection loss.
	CheckpointEvery int
	AllowDataChange bool
	SeasonalHighway bool // the highway was not given: max(4, season) lags
	SeasonGiven     bool // season := n was given
	HorizonGiven    bool // horizon := h was given
	CompareGraph    bool // train the twin without the graph beside the network

	// From is the checkpoint a resumed run continues, FromRef its version.
	From            *Artifact
	FromRef         mlops.Ref
	FromFingerprint string

	// Across launches the run across MPI ranks; nil trains in this process.
	Across *training.Launch

	timeKinds []string   // of the source's time columns
	lastTimes [][]string // the source's last two time rows, latest first
	timeRows  [][]string // the source's time rows, in time order

	// phases is where the statement's time outside the epochs went, for
	// its closing NOTICE.
	phases phases
}

// TimeKinds are the kinds of the source's time columns, once read.
func (j *Job) TimeKinds() []string { return j.timeKinds }

// TimeRows are the source's time rows in time order, once read.
func (j *Job) TimeRows() [][]string { return j.timeRows }

// LastTimes are the source's last two time rows, latest first, once
// the run is prepared.
func (j *Job) LastTimes() [][]string { return j.lastTimes }

// Resume is the version a resumed run continues; nil for a new run.
func (j *Job) Resume() *training.Resume {
	if j.From == nil {
		return nil
	}
	return &training.Resume{From: j.FromRef, Fingerprint: j.FromFingerprint, AllowDataChange: j.AllowDataChange}
}

// Read reserves the training data's memory, reads the source's matrix
// and time rows, and checks that there are enough rows for the window:
// the lifecycle's read step (see training.Start).
func (j *Job) Read(ctx context.Context, mem *training.Memory) (training.Model, error) {
	began := time.Now()
	if err := j.reserve(ctx, mem); err != nil {
		return nil, err
	}
	m, err := j.Source.Matrix(ctx)
	if err == nil && j.Long {
		err = j.rescaleLong(m)
	}
	if err == nil {
		j.timeKinds, j.timeRows, err = j.Source.TimeRows(ctx)
	}
	if err == nil && m.T < MinRows(j.Config.Span()) {
		err = sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d time rows; window := %d and highway := %d need at least %d",
			Name, m.T, j.Config.Window, j.Config.Highway, MinRows(j.Config.Span()))
	}
	if err != nil {
		return nil, err
	}
	j.phases = phases{read: time.Since(began)}
	return &run{Job: j, m: m, read: time.Now()}, nil
}

// MinRows is the fewest time rows training needs: a window, and a
// training and a test target after it.
func MinRows(window int) int { return window + 2 }

// reserve takes the memory of the run's training data from the server's
// budget before the source is read (see trainingBytes), until the run
// ends.
func (j *Job) reserve(ctx context.Context, mem *training.Memory) error {
	rows, err := j.Source.Rows(ctx)
	if err != nil {
		return err
	}
	n := len(j.Source.EntityNames())
	if err := checkCompleteGraph(j.Config.Neighbors, n); err != nil {
		return err
	}
	return mem.Reserve(ctx, trainingBytes(j.Config, rows, n),
		fmt.Sprintf("%s's training data (%d rows x %d entities)", Name, rows, n))
}

// maxCompleteEntities is the most entities train_gat trains on the
// complete graph (neighbors := 0, or k of at least the other entities):
// 2,000 entities make 4 million edges a sample, whose correlations,
// attention and gradients take hundreds of MB per worker.
const maxCompleteEntities = 2000

// checkCompleteGraph fails with 54000 when neighbors asks for every pair
// of more than maxCompleteEntities entities.
func checkCompleteGraph(neighbors, n int) error {
	if n <= maxCompleteEntities || neighbors > 0 && neighbors < n-1 {
		return nil
	}
	return sqlstate.New(sqlstate.ProgramLimitExceeded,
		"%s: neighbors := %d makes every pair of the %d entities an edge (%d a sample); the complete graph is limited to %d entities",
		Name, neighbors, n, n*(n-1), maxCompleteEntities).
		WithHint("Keep each entity's k strongest correlations with neighbors := 10 (any k below %d), in memory proportional to entities x k.", n-1)
}

// trainingBytes estimates the memory train_gat's data takes for rows
// time rows of n entities, from the shapes alone: 8 bytes a cell three
// times over (the matrix read, the anchor's one-step forecasts of its
// rows, the evaluation's predictions of them); with a neighbour limit,
// the graph cache (4 bytes an edge, n x neighbors edges a row, at most
// the cache's 256 MiB) and each worker's running top-k (12 bytes a kept
// edge of one sample) and, past gat.ApproxNeighborsEntities, the
// approximate search's buffers; without one, each worker's correlations and
// complete graph (8 + 24 bytes an ordered pair). On top comes the
// report's attention (see reportAttentionBytes). The network, its
// optimiser state and the per-sample buffers are O(n x (window + hidden))
// and are not counted.
func trainingBytes(cfg gat.Config, rows int64, n int) int64 {
	cells := rows * int64(n)
	bytes := 3*8*cells + reportAttentionBytes(cfg, rows, n)
	if cfg.Neighbors > 0 && cfg.Neighbors < n-1 {
		return bytes + min(4*cells*int64(cfg.Neighbors), 256<<20) + int64(max(1, cfg.Workers))*12*int64(n)*int64(cfg.Neighbors) +
			gat.ApproxNeighborsBytes(n, cfg.Neighbors, cfg.Workers)
	}
	return bytes + int64(max(1, cfg.Workers))*32*int64(n)*int64(n)
}

// reportAttentionBytes bounds the memory of the report's attention for
// rows time rows of n entities. Without a neighbour limit every pair is
// an edge: n x n of about 170 bytes each at the peak (its running sum,
// count and sample, 24; the model's edge, 24; its JSON in the report,
// about 55, and the copy of that the store makes). With a limit k the
// running sums hold each (source, target) pair that was an edge of some
// test sample, at most n x (k + 1) a sample, 16 bytes each and up to
// twice that as their lists grow; the report keeps n x (k + 1) of them
// (edge and JSON, about 140 bytes each).
func reportAttentionBytes(cfg gat.Config, rows int64, n int) int64 {
	pairs := int64(n) * int64(n)
	k := cfg.Neighbors
	if k <= 0 || k >= n-1 {
		return 170 * pairs
	}
	tests := max(1, int64(math.Ceil(float64(rows)*(1-cfg.TrainFraction))))
	kept := int64(n) * int64(k+1)
	return 32*min(pairs, kept*tests) + 140*kept
}

// quote is s as a SQL string literal, for messages.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
