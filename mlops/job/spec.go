// Package job is a training job that runs as MPI ranks outside the SQL
// server: `mallard train-worker --job DIR` in each rank reads the Spec in
// DIR, reads the source (Parquet files) with an in-memory DuckDB of its
// own, trains with the other ranks through a parallel.Ranks collective,
// each taking its share of every mini-batch, and rank 0 writes the run's
// progress, checkpoints and final artifact to DIR. It is the one package under
// mlops that reads data through storage: a batch entry point, as
// functions is the SQL server's.
package job

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/recommender"
)

// SpecFile is the name of the job spec in the job directory.
const SpecFile = "job.json"

// The kinds of model a job trains.
const (
	KindGAT         = "gat"
	KindRecommender = "recommender"
	KindClassifier  = "classifier"
)

// ErrVersion is the error of a spec written for another version of Mallard.
var ErrVersion = errors.New("job spec of another Mallard version")

// Spec is a job, as DIR/job.json holds it.
type Spec struct {
	// Version is the Mallard release that wrote the job; a worker of
	// another release refuses it, since neither the spec nor the artifact
	// it writes is promised to mean the same across releases.
	Version string `json:"version"`
	// Kind is KindGAT, KindRecommender or KindClassifier.
	Kind string `json:"kind"`
	// Source is a glob of Parquet files, relative to the job directory
	// unless absolute; "" is every *.parquet file there.
	Source string `json:"source,omitempty"`
	// Time names the GAT source's time columns, which order its rows; every
	// other column is an entity.
	Time []string `json:"time,omitempty"`
	// Seed seeds the run (it overrides the hyperparameters' seed).
	Seed uint64 `json:"seed"`
	// Workers is the number of goroutine workers in each rank (default 1);
	// the model's Config.Workers is the total, ranks x Workers.
	Workers int `json:"workers,omitempty"`
	// CheckpointEvery writes a checkpoint every so many epochs (0: none).
	CheckpointEvery int `json:"checkpoint_every,omitempty"`
	// CheckpointBest also writes a checkpoint after each epoch with a new
	// lowest selection loss (checkpoint_every := 0 of the SQL training
	// functions): a GAT's validation MSE, else its test MSE; a
	// recommender's test RMSE, or 1 − NDCG@10 for the ranking objectives.
	CheckpointBest bool `json:"checkpoint_best,omitempty"`
	// CheckpointFiles also keeps each checkpoint as the file
	// CheckpointFileOf(epoch) until its reader (the SQL server) removes it,
	// so that none is missed when a later one replaces CheckpointFile
	// before it is read.
	CheckpointFiles bool `json:"checkpoint_files,omitempty"`
	// Start names a checkpoint whose model the job trains on from the
	// epoch after the checkpoint's, as train_gat's resume does: for a GAT
	// job an artifact, which holds its epoch; for a recommender job one
	// that such a job wrote (an artifact, or a sharded job's model), of
	// epoch StartEpoch.
	Start      string `json:"start,omitempty"`
	StartEpoch int    `json:"start_epoch,omitempty"`
	// GAT are the hyperparameters of a GAT job; those left out keep
	// gat.DefaultConfig's values.
	GAT json.RawMessage `json:"gat,omitempty"`
	// User, Item and Rating name a recommender source's columns (by
	// default user_id, item_id and rating); TestFraction of the ratings
	// (0.1 by default) are held out, as train_recommender's test_fraction.
	User         string  `json:"user,omitempty"`
	Item         string  `json:"item,omitempty"`
	Rating       string  `json:"rating,omitempty"`
	TestFraction float64 `json:"test_fraction,omitempty"`
	// Recommender are the hyperparameters of a recommender job; those
	// left out keep recommender.DefaultConfig's values.
	Recommender json.RawMessage `json:"recommender,omitempty"`
	// Classifier is a classifier job's prepared model and settings; its
	// rows are the files TrainDataFile and ValDataFile.
	Classifier *Classifier `json:"classifier,omitempty"`
	// Shard names the statistics over every row of a source sharded
	// across the ranks (see WriteShards and WriteGATShards): each rank
	// then reads only its own file of the source (by default
	// shard-*.parquet, one per rank): a recommender rank its users'
	// ratings, split already; a GAT rank its samples' rows.
	Shard string `json:"shard,omitempty"`
}

// ReadSpec reads the spec in dir and checks it against the worker's
// version.
func ReadSpec(dir, version string) (Spec, error) {
	data, err := os.ReadFile(filepath.Join(dir, SpecFile))
	if err != nil {
		return Spec{}, fmt.Errorf("read job spec: %w", err)
	}
	var s Spec
	if err := json.Unmarshal(data, &s); err != nil {
		return Spec{}, fmt.Errorf("decode job spec %s: %w", filepath.Join(dir, SpecFile), err)
	}
	if s.Version != version {
		return Spec{}, fmt.Errorf("%w: the job was written for Mallard %q, this worker is %q", ErrVersion, s.Version, version)
	}
	return s, s.Validate()
}

// Validate reports the first field out of range.
func (s Spec) Validate() error {
	switch {
	case s.Kind != KindGAT && s.Kind != KindRecommender && s.Kind != KindClassifier:
		return fmt.Errorf("job spec: kind %q must be %q, %q or %q", s.Kind, KindGAT, KindRecommender, KindClassifier)
	case s.Kind == KindClassifier && (s.Classifier == nil || s.Classifier.Model == nil):
		return errNoClassifier
	case s.TestFraction < 0 || s.TestFraction >= 1:
		return fmt.Errorf("job spec: test_fraction %v must be in (0, 1)", s.TestFraction)
	case s.Workers < 0:
		return fmt.Errorf("job spec: workers %d must be at least 1", s.Workers)
	case s.CheckpointEvery < 0:
		return fmt.Errorf("job spec: checkpoint_every %d must be at least 0", s.CheckpointEvery)
	case s.Kind == KindRecommender && s.Start != "" && s.StartEpoch < 1:
		return fmt.Errorf("job spec: start_epoch %d must be at least 1, the epoch of the recommender's start %q", s.StartEpoch, s.Start)
	case s.StartEpoch != 0 && (s.Kind != KindRecommender || s.Start == ""):
		return fmt.Errorf("job spec: start_epoch %d is for a recommender job with a start", s.StartEpoch)
	case s.Shard != "" && s.Kind == KindGAT && s.Start == "":
		return fmt.Errorf("job spec: a sharded GAT job starts from the model WriteGATShards writes: start must name it")
	case s.Kind == KindGAT && len(s.Time) == 0:
		return errors.New("job spec: time must name the GAT source's time columns, which order its rows")
	}
	return nil
}

// workers is the number of workers in each rank.
func (s Spec) workers() int { return max(s.Workers, 1) }

// GATConfig is the GAT configuration of s for ranks ranks.
func (s Spec) GATConfig(ranks int) (gat.Config, error) {
	cfg := gat.DefaultConfig()
	if len(s.GAT) > 0 {
		if err := json.Unmarshal(s.GAT, &cfg); err != nil {
			return cfg, fmt.Errorf("job spec: gat: %w", err)
		}
	}
	cfg.Seed, cfg.Workers = s.Seed, ranks*s.workers()
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("job spec: gat: %w", err)
	}
	return cfg, nil
}

// RecommenderConfig is the recommender configuration of s for ranks ranks.
func (s Spec) RecommenderConfig(ranks int) (recommender.Config, error) {
	cfg := recommender.DefaultConfig()
	if len(s.Recommender) > 0 {
		if err := json.Unmarshal(s.Recommender, &cfg); err != nil {
			return cfg, fmt.Errorf("job spec: recommender: %w", err)
		}
	}
	cfg.Seed, cfg.Workers = s.Seed, ranks*s.workers()
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("job spec: recommender: %w", err)
	}
	return cfg, nil
}

// columns are the recommender source's columns, defaults filled in.
func (s Spec) columns() (user, item, rating string) {
	user, item, rating = s.User, s.Item, s.Rating
	if user == "" {
		user = "user_id"
	}
	if item == "" {
		item = "item_id"
	}
	if rating == "" {
		rating = "rating"
	}
	return user, item, rating
}

// testFraction is s.TestFraction, 0.1 when not given.
func (s Spec) testFraction() float64 {
	if s.TestFraction == 0 {
		return 0.1
	}
	return s.TestFraction
}

// Write writes s as dir's job spec.
func (s Spec) Write(dir string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, SpecFile), append(data, '\n'))
}

// WriteAs writes the spec as Write does, for the Mallard release version
// (Spec.Version), which a worker of another release refuses.
func (s Spec) WriteAs(dir, version string) error {
	s.Version = version
	return s.Write(dir)
}
