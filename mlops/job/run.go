package job

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/storage"
)

// Result is what a rank reports when its job ends.
type Result struct {
	Rank, Ranks, Workers int
	Epochs               int
	// Weights is the SHA-256 of the final weights' bits: every rank of a
	// job holds the same model, and so the same digest.
	Weights string
	// Reducing is the time the rank spent in the all-reduce across ranks
	// (waiting for the others included).
	Reducing time.Duration
	// Read is the number of the source's rows the rank read (ratings, or
	// the GAT's time steps), and Rows the source's in all: a rank of a
	// sharded job reads only its own.
	Read, Rows int
	// Procs is the rank's GOMAXPROCS, and HadProcs the one it started
	// with: see parallel.ShareProcessors.
	Procs, HadProcs int
}

// Run runs the job in dir as this process's rank of comm: version is the
// worker's Mallard release, which the spec must name. A rank that fails
// returns its error; under MPI its exit then ends the other ranks (they
// may be blocked in an all-reduce that cannot be canceled). Where comm
// knows how many of its processes share this machine (a parallel.World),
// Run sets this process's GOMAXPROCS to its share of the processors first
// (parallel.ShareProcessors).
func Run(ctx context.Context, dir, version string, comm parallel.Comm) (Result, error) {
	spec, err := ReadSpec(dir, version)
	if err != nil {
		return Result{}, err
	}
	procs := runtime.GOMAXPROCS(0)
	had := procs
	if w, ok := comm.(interface{ Here() int }); ok {
		procs, had = parallel.ShareProcessors(w.Here(), spec.workers())
	}
	res, err := run(ctx, dir, spec, comm)
	res.Procs, res.HadProcs = procs, had
	return res, err
}

// run runs the job of spec in dir: see Run.
func run(ctx context.Context, dir string, spec Spec, comm parallel.Comm) (Result, error) {
	if spec.Kind == KindClassifier { // its rows are prepared already: no source to read
		return runClassifier(ctx, dir, spec, comm)
	}
	files, err := spec.files(dir)
	if err != nil {
		return Result{}, err
	}
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return Result{}, err
	}
	defer db.Close(context.WithoutCancel(ctx))
	if spec.Kind == KindRecommender {
		return runRecommender(ctx, dir, spec, files, db, comm)
	}
	return runGAT(ctx, dir, spec, files, db, comm)
}

// runRecommender trains a recommender job: every rank reads every rating
// (see readRatings) and its workers take their shares of every
// mini-batch's users.
func runRecommender(ctx context.Context, dir string, spec Spec, files []string, db *storage.DB, comm parallel.Comm) (Result, error) {
	cfg, err := spec.RecommenderConfig(comm.Size())
	if err != nil {
		return Result{}, err
	}
	if spec.Shard != "" {
		return runShard(ctx, dir, spec, cfg, files, db, comm)
	}
	src, err := readRatings(ctx, db, files, spec)
	if err != nil {
		return Result{}, err
	}
	train, test := recommender.Split(src.all, spec.testFraction(), cfg.Seed)
	if train.Len() == 0 || test.Len() == 0 {
		return Result{}, fmt.Errorf("job spec: test_fraction %g of %d ratings leaves %d to train on and %d to test",
			spec.testFraction(), src.all.Len(), train.Len(), test.Len())
	}
	fit := train // the users held out for evaluate's protocol 'users' never train
	if h := cfg.HoldOutUsers; h > 0 {
		fit = recommender.WithoutUsers(train, recommender.HeldOutUsers(train, test, h, cfg.Seed))
	}
	artifact := func(model *recommender.Model, epoch int) ([]byte, error) {
		return recommender.EncodeStored(model, train, test, epoch, src.columns())
	}
	start, err := recommenderStart(dir, spec)
	if err != nil {
		return Result{}, err
	}
	coll := parallel.NewRanks(comm, spec.workers())
	model, epochs, err := trainRecommender(dir, spec, cfg.Objective, comm, artifact, func(report func(recommender.Epoch) error) (*recommender.Model, error) {
		return recommender.TrainOn(ctx, coll, cfg, fit, test, start, report)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Rank: comm.Rank(), Ranks: comm.Size(), Workers: spec.workers(), Epochs: epochs, Weights: digest(recWeights(model)),
		Reducing: coll.Reducing(), Read: src.all.Len(), Rows: src.all.Len()}, nil
}

// trainRecommender runs train as this rank's part of a recommender job:
// rank 0 writes each epoch's progress, with a checkpoint encoded by encode
// when one is due, and then the trained model, encoded likewise, as the
// job's artifact. It returns the model and the last epoch trained.
func trainRecommender(dir string, spec Spec, objective string, comm parallel.Comm, encode func(*recommender.Model, int) ([]byte, error),
	train func(report func(recommender.Epoch) error) (*recommender.Model, error)) (*recommender.Model, int, error) {
	var report func(recommender.Epoch) error
	epochs := 0
	if comm.Rank() == 0 {
		p, err := openProgress(dir)
		if err != nil {
			return nil, 0, err
		}
		defer p.Close()
		lowest := math.Inf(1)
		report = func(e recommender.Epoch) error {
			epochs = e.Epoch
			loss := recommender.SelectionLoss(objective, e)
			best := loss < lowest // false for a NaN, as the registry has it
			if best {
				lowest = loss
			}
			return p.recommenderEpoch(dir, spec, best, e, func() ([]byte, error) { return encode(e.Snapshot(), e.Epoch) })
		}
	}
	model, err := train(report)
	if err != nil {
		return nil, 0, fmt.Errorf("train: %w", err)
	}
	if err := writeArtifact(dir, comm, func() ([]byte, error) { return encode(model, epochs) }); err != nil {
		return nil, 0, err
	}
	return model, epochs, nil
}

// runShard trains a sharded recommender job (see WriteShards): the rank
// reads its own users' ratings only, and the statistics over every rating
// from the job; rank 0's artifacts are the model alone, which the server
// that exported the job completes with the ratings it holds.
func runShard(ctx context.Context, dir string, spec Spec, cfg recommender.Config, files []string, db *storage.DB, comm parallel.Comm) (Result, error) {
	s, train, test, err := readShard(ctx, db, dir, spec, files, comm.Rank(), comm.Size())
	if err != nil {
		return Result{}, err
	}
	start, err := recommenderStart(dir, spec)
	if err != nil {
		return Result{}, err
	}
	coll := parallel.NewRanks(comm, spec.workers())
	encode := func(m *recommender.Model, _ int) ([]byte, error) { return m.Marshal() }
	model, epochs, err := trainRecommender(dir, spec, cfg.Objective, comm, encode, func(report func(recommender.Epoch) error) (*recommender.Model, error) {
		return recommender.TrainShard(ctx, coll, cfg, train, test, s, start, report)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Rank: comm.Rank(), Ranks: comm.Size(), Workers: spec.workers(), Epochs: epochs, Weights: digest(recWeights(model)),
		Reducing: coll.Reducing(), Read: train.Len() + test.Len(), Rows: s.TrainRatings + s.TestRatings}, nil
}

// recommenderStart is the model a recommender job starts from (see
// Spec.Start): none without a start.
func recommenderStart(dir string, spec Spec) (recommender.Start, error) {
	if spec.Start == "" {
		return recommender.Start{}, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, spec.Start))
	if err != nil {
		return recommender.Start{}, fmt.Errorf("read the start %s: %w", spec.Start, err)
	}
	if bytes.HasPrefix(data, recommender.ArtifactMagic) { // the model is the second part, after the header
		parts, err := recommender.ArtifactParts(data, 2)
		if err != nil {
			return recommender.Start{}, fmt.Errorf("read the start %s: %w", spec.Start, err)
		}
		data = parts[1]
	}
	m, err := recommender.Unmarshal(data)
	if err != nil {
		return recommender.Start{}, fmt.Errorf("read the start %s: %w", spec.Start, err)
	}
	return recommender.Start{Model: m, Epoch: spec.StartEpoch}, nil
}

// recWeights are a recommender's weights as float64s.
func recWeights(m *recommender.Model) [][]float64 {
	out := make([][]float64, len(m.Weights))
	for i, w := range m.Weights {
		out[i] = w
	}
	return out
}

// runGAT trains a GAT job: every rank reads the whole matrix and its
// workers take their shares of every mini-batch's samples; in a sharded
// job (see WriteGATShards) a rank reads only its own samples' rows.
func runGAT(ctx context.Context, dir string, spec Spec, files []string, db *storage.DB, comm parallel.Comm) (Result, error) {
	cfg, err := spec.GATConfig(comm.Size())
	if err != nil {
		return Result{}, err
	}
	if spec.Shard != "" {
		return runGATShard(ctx, dir, spec, cfg, files, db, comm)
	}
	w, err := readWide(ctx, db, files, spec.Time)
	if err != nil {
		return Result{}, err
	}
	encode := func(model *gat.Model, epoch int, final bool) ([]byte, error) {
		a := gat.Artifact{Model: model, Entities: w.entities, TimeColumns: w.times, TimeKinds: w.kinds, LastTimes: w.lastTwo(),
			Tail: w.m.Values[(w.m.T-cfg.Span())*w.m.N:], Epoch: epoch}
		if final {
			a.Data = w.m.Values
		}
		return a.Marshal()
	}
	var start gat.Start
	if spec.Start != "" {
		data, err := os.ReadFile(filepath.Join(dir, spec.Start))
		if err != nil {
			return Result{}, fmt.Errorf("read the start: %w", err)
		}
		a, err := gat.UnmarshalArtifact(data)
		if err != nil {
			return Result{}, fmt.Errorf("read the start %s: %w", spec.Start, err)
		}
		start = gat.Start{Model: a.Model, Epoch: a.Epoch}
	}
	coll := parallel.NewRanks(comm, spec.workers())
	model, epochs, err := trainGAT(dir, spec, comm, start.Epoch, encode, func(report func(gat.Epoch) error) (*gat.Model, error) {
		return gat.TrainOn(ctx, coll, cfg, w.m, start, report)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Rank: comm.Rank(), Ranks: comm.Size(), Workers: spec.workers(), Epochs: epochs, Weights: digest(model.Weights),
		Reducing: coll.Reducing(), Read: w.m.T, Rows: w.m.T}, nil
}

// trainGAT runs train as this rank's part of a GAT job that starts after
// epoch first: rank 0 writes each epoch's progress, with a checkpoint
// encoded by encode when one is due, and then the trained model, encoded
// likewise as final, as the job's artifact. It returns the model and the
// last epoch trained.
func trainGAT(dir string, spec Spec, comm parallel.Comm, first int, encode func(model *gat.Model, epoch int, final bool) ([]byte, error),
	train func(report func(gat.Epoch) error) (*gat.Model, error)) (*gat.Model, int, error) {
	var report func(gat.Epoch) error
	epochs := first
	if comm.Rank() == 0 {
		p, err := openProgress(dir)
		if err != nil {
			return nil, 0, err
		}
		defer p.Close()
		report = func(e gat.Epoch) error {
			epochs = e.Epoch
			pr := Progress{Epoch: e.Epoch, Best: e.Best, ElapsedMS: e.Elapsed.Milliseconds(),
				Metrics: map[string]*float64{"train_mse": metric(e.TrainMSE), "val_mse": metric(e.ValMSE), "test_mse": metric(e.TestMSE)}}
			return p.epoch(dir, spec.CheckpointEvery, spec.CheckpointBest, spec.CheckpointFiles, pr, func() ([]byte, error) { return encode(e.Snapshot(), e.Epoch, false) })
		}
	}
	model, err := train(report)
	if err != nil {
		return nil, 0, fmt.Errorf("train: %w", err)
	}
	if err := writeArtifact(dir, comm, func() ([]byte, error) { return encode(model, model.Kept, true) }); err != nil {
		return nil, 0, err
	}
	return model, epochs, nil
}

// digest is the SHA-256 of the bits of weights, in order.
func digest(weights [][]float64) string {
	h := sha256.New()
	var b [8]byte
	for _, w := range weights {
		for _, v := range w {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
