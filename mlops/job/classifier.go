package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/parallel"
)

// The files of a classifier job's rows, which WriteClassifierData
// writes in the job directory (classifier.WriteData's encoding).
const (
	TrainDataFile = "train.data"
	ValDataFile   = "val.data"
)

// Classifier is a classifier or regressor job's part of the spec: what
// classifier.Prepare made of the source in the server, less the rows,
// which are files of the job, and the training state the job goes on
// from. Config.Seed and Config.Workers are the spec's (Seed, and ranks
// x Workers).
type Classifier struct {
	// Model is the prepared model, without weights.
	Model  *classifier.Model `json:"model"`
	Config classifier.Config `json:"config"`
	From   *classifier.State `json:"from,omitempty"`
}

// ClassifierArtifact is the artifact rank 0 of a classifier job writes:
// the model with the weights training keeps (the best epoch's), and the
// training state after the last epoch, which a resumed run goes on from
// (nil when the job trained no epoch). Its checkpoints are the
// classifier.State after their epoch, as JSON.
type ClassifierArtifact struct {
	Model *classifier.Model `json:"model"`
	Last  *classifier.State `json:"last,omitempty"`
}

// WriteClassifierData writes the prepared rows of p into the job
// directory dir, where a classifier job's ranks read them.
func WriteClassifierData(dir string, p *classifier.Prepared) error {
	for name, d := range map[string]classifier.Data{TrainDataFile: p.Train, ValDataFile: p.Val} {
		if err := writeData(filepath.Join(dir, name), d, p.Dim()); err != nil {
			return err
		}
	}
	return nil
}

func writeData(path string, d classifier.Data, dim int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = classifier.WriteData(f, d, dim)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func readData(path string) (classifier.Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return classifier.Data{}, err
	}
	defer f.Close()
	d, err := classifier.ReadData(f)
	if err != nil {
		return d, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// readClassifier is the prepared model of a classifier job in dir, its
// rows read, for ranks ranks.
func readClassifier(dir string, spec Spec, ranks int) (*classifier.Prepared, error) {
	c := spec.Classifier
	p := &classifier.Prepared{Model: c.Model, Config: c.Config}
	p.Config.Seed, p.Config.Workers = spec.Seed, ranks*spec.workers()
	if err := p.Config.Validate(); err != nil {
		return nil, fmt.Errorf("job spec: classifier: %w", err)
	}
	var err error
	if p.Train, err = readData(filepath.Join(dir, TrainDataFile)); err != nil {
		return nil, err
	}
	if p.Val, err = readData(filepath.Join(dir, ValDataFile)); err != nil {
		return nil, err
	}
	return p, nil
}

// runClassifier trains a classifier job: every rank reads every row and
// its workers take their shares of every mini-batch. Rank 0 writes each
// epoch's progress, named as train_classifier's columns are, a
// checkpoint when one is due (an epoch is best at a new lowest selection
// loss: the validation loss, or the training loss without validation
// rows), and the ClassifierArtifact.
func runClassifier(ctx context.Context, dir string, spec Spec, comm parallel.Comm) (Result, error) {
	p, err := readClassifier(dir, spec, comm.Size())
	if err != nil {
		return Result{}, err
	}
	var report func(classifier.Epoch) error
	var last *classifier.State
	if comm.Rank() == 0 {
		prog, err := openProgress(dir)
		if err != nil {
			return Result{}, err
		}
		defer prog.Close()
		lowest := math.Inf(1)
		report = func(e classifier.Epoch) error {
			last = e.State()
			selection := e.ValLoss
			if math.IsNaN(selection) {
				selection = e.TrainLoss
			}
			best := selection < lowest // false for a NaN, as the registry has it
			if best {
				lowest = selection
			}
			pr := Progress{Epoch: e.Epoch, Best: best, ElapsedMS: e.Elapsed.Milliseconds(), Metrics: map[string]*float64{
				"train_loss": metric(e.TrainLoss), "val_loss": metric(e.ValLoss), "val_accuracy": metric(e.ValAccuracy), "val_rmse": metric(e.ValRMSE)}}
			return prog.epoch(dir, spec.CheckpointEvery, spec.CheckpointBest, spec.CheckpointFiles, pr, func() ([]byte, error) { return json.Marshal(last) })
		}
	}
	coll := parallel.NewRanks(comm, spec.workers())
	model, err := p.TrainOn(ctx, coll, spec.Classifier.From, report)
	if err != nil {
		return Result{}, fmt.Errorf("train: %w", err)
	}
	if err := writeArtifact(dir, comm, func() ([]byte, error) { return json.Marshal(ClassifierArtifact{Model: model, Last: last}) }); err != nil {
		return Result{}, err
	}
	epochs := 0
	if last != nil {
		epochs = last.Epoch
	}
	return Result{Rank: comm.Rank(), Ranks: comm.Size(), Workers: spec.workers(), Epochs: epochs, Weights: digest([][]float64{model.Weights}),
		Reducing: coll.Reducing(), Read: p.Train.Rows + p.Val.Rows, Rows: p.Train.Rows + p.Val.Rows}, nil
}

// writeArtifact has rank 0 of comm write what encode makes as the job's
// artifact in dir; the other ranks write nothing.
func writeArtifact(dir string, comm parallel.Comm, encode func() ([]byte, error)) error {
	if comm.Rank() != 0 {
		return nil
	}
	data, err := encode()
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, ArtifactFile), data)
}

// errNoClassifier is the error of a classifier job without its part of
// the spec.
var errNoClassifier = errors.New("job spec: a classifier job needs classifier, the prepared model and its settings")
