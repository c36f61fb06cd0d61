package classifier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// Config is how a network is trained. The zero value is not valid; see
// DefaultConfig.
type Config struct {
	Epochs      int
	BatchSize   int     // examples per step, over all workers
	Optimizer   string  // OptimizerAdam or OptimizerSGD
	LR          float64 // learning rate
	Momentum    float64 // SGD's momentum
	WeightDecay float64 // L2 coefficient added to every gradient
	Patience    int     // stop after this many epochs without a better validation loss; 0 never stops early
	Workers     int     // data-parallel workers
	Seed        uint64
	// ClassWeights, when set, weigh each training example's loss by its
	// class's weight (one per class); validation losses are not weighted.
	ClassWeights []float64
}

// DefaultConfig is 10 epochs of Adam (lr 0.001) over batches of 64, one
// worker, patience 3.
func DefaultConfig() Config {
	return Config{Epochs: 10, BatchSize: 64, Optimizer: OptimizerAdam, LR: 0.001, Momentum: 0.9, Patience: 3, Workers: 1, Seed: 1}
}

// Validate reports the first setting out of its range.
func (c Config) Validate() error {
	switch {
	case c.Epochs < 1:
		return fmt.Errorf("epochs %d: want at least 1", c.Epochs)
	case c.BatchSize < 1:
		return fmt.Errorf("batch size %d: want at least 1", c.BatchSize)
	case c.Optimizer != OptimizerAdam && c.Optimizer != OptimizerSGD:
		return fmt.Errorf("optimizer %q: want %q or %q", c.Optimizer, OptimizerAdam, OptimizerSGD)
	case !(c.LR > 0):
		return fmt.Errorf("learning rate %g: want > 0", c.LR)
	case c.Momentum < 0 || c.Momentum >= 1:
		return fmt.Errorf("momentum %g: want 0 <= momentum < 1", c.Momentum)
	case c.WeightDecay < 0:
		return fmt.Errorf("weight decay %g: want >= 0", c.WeightDecay)
	case c.Patience < 0:
		return fmt.Errorf("patience %d: want >= 0", c.Patience)
	case c.Workers < 1 || c.Workers > c.BatchSize:
		return fmt.Errorf("workers %d: want 1 to the batch size %d", c.Workers, c.BatchSize)
	}
	return nil
}

// Data is a set of examples: Rows rows, each of the network's input
// size, with a class label in [0, classes) per row or, for a regressor,
// a target per row. The inputs are read from Examples, a batch at a
// time; without Examples they are X, held in memory row after row.
type Data struct {
	X        []float64
	Examples Examples
	Rows     int
	Labels   []int     // classification
	Targets  []float64 // regression
}

// Epoch is what training reports after each epoch. ValAccuracy is set for
// a classifier and ValRMSE for a regressor, both NaN without validation
// data; ValLoss is the mean validation loss (cross-entropy, or squared
// error) and TrainLoss the mean loss of the epoch's batches, with dropout.
type Epoch struct {
	Epoch       int
	TrainLoss   float64
	ValLoss     float64
	ValAccuracy float64
	ValRMSE     float64
	Elapsed     time.Duration
	// Weights are rank 0's weights after the epoch; they are valid only
	// while the report function runs.
	Weights []float64
	// Snapshot, set by Fit, returns the model after the epoch, with a
	// copy of Weights; it may be called only while the report function
	// runs.
	Snapshot func() *Model
	// State returns a copy of the training state after the epoch, from
	// which TrainFrom goes on as if training had not stopped; it may be
	// called only while the report function runs.
	State func() *State
}

// State is training's state after an epoch: the weights, the
// optimiser's moments and step count, and early stopping's best weights,
// best validation loss and epochs since. Training from it follows the
// run it was taken from exactly.
type State struct {
	Epoch    int       `json:"epoch"`
	Weights  []float64 `json:"weights"`
	M        []float64 `json:"m"`
	V        []float64 `json:"v"`
	Step     int       `json:"step"`
	Best     []float64 `json:"best"`
	BestLoss float64   `json:"best_loss"`
	Since    int       `json:"since"`
}

// ErrStopped is returned by a report function to end training early
// without an error; Train then returns the best weights so far.
var ErrStopped = errors.New("training stopped")

// Network is an architecture over an input shape: height, width and
// channels of an image (channel-last), or 1, 1 and the number of
// features.
type Network struct {
	Arch       Arch
	H, W, C    int
	Regression bool
}

// Train trains net on train, reporting each epoch to report (which may be
// nil), and returns the weights of the epoch with the lowest validation
// loss (the last epoch's without validation rows).
//
// With cfg.Workers > 1 the workers each compute the gradient of a
// contiguous share of every batch and sum them with one AllReduceSum;
// every example's dropout mask and the batches' order depend only on the
// seed, so the run follows one worker's up to the order of summation
// inside the batch gradient, which moves only the last bits of a step.
func Train(ctx context.Context, net Network, cfg Config, train, val Data, report func(Epoch) error) ([]float64, error) {
	return TrainFrom(ctx, net, cfg, train, val, nil, report)
}

// TrainFrom is Train going on from the state after an epoch (see
// Epoch.State) with its first epoch the one after; from nil it is
// Train. With the same network, settings and data it follows the run the
// state was taken from exactly.
func TrainFrom(ctx context.Context, net Network, cfg Config, train, val Data, from *State, report func(Epoch) error) ([]float64, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return TrainOn(ctx, parallel.NewLocal(cfg.Workers), net, cfg, train, val, from, report)
}

// TrainOn is TrainFrom with the workers of coll, which must number
// cfg.Workers: this process runs those of coll's workers that are its own
// (parallel.Locals), on train and val, which every process holds whole.
// Across processes (a parallel.Ranks) the run follows a run of as many
// workers in one process up to the order of summation of each batch's
// gradient; report is called in the process that runs worker 0 only.
func TrainOn(ctx context.Context, coll parallel.Collective, net Network, cfg Config, train, val Data, from *State,
	report func(Epoch) error) ([]float64, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if coll.Size() != cfg.Workers {
		return nil, fmt.Errorf("workers %d: the collective joins %d", cfg.Workers, coll.Size())
	}
	first, n := parallel.Locals(coll)
	ws := make([]*worker, n)
	var w0 []float64
	for i := range ws {
		w, err := newWorker(net, cfg, &train, &val, coll, first+i)
		if err != nil {
			return nil, err
		}
		if i == 0 { // every process draws the same initial weights from the seed
			w0 = make([]float64, w.net.params())
			w.net.init(w0, rand.New(rand.NewPCG(cfg.Seed, 0x5eed)))
		}
		if err := w.check(); err != nil {
			return nil, err
		}
		copy(w.w, w0)
		if err := w.restore(from); err != nil {
			return nil, err
		}
		ws[i] = w
	}
	if first == 0 {
		ws[0].report = report
	}
	err := parallel.RunLocals(ctx, coll, func(ctx context.Context, rank int) error { return ws[rank-first].loop(ctx, from) })
	if err != nil && !errors.Is(err, ErrStopped) {
		return nil, err
	}
	return ws[0].best, nil
}

// permutation is the order of an epoch's examples, the same for every
// worker.
func permutation(seed uint64, epoch, n int) []int {
	return rand.New(rand.NewPCG(seed, uint64(epoch))).Perm(n)
}

// isBetter reports whether loss improves on best (NaN never does).
func isBetter(loss, best float64) bool { return loss < best || (math.IsNaN(best) && !math.IsNaN(loss)) }

// restore sets the worker's weights and optimiser from s; nil leaves
// them as initialised.
func (w *worker) restore(s *State) error {
	if s == nil {
		return nil
	}
	n := len(w.w)
	if len(s.Weights) != n || len(s.M) != n || len(s.V) != n || len(s.Best) != n {
		return fmt.Errorf("training state of %d weights for a network of %d", len(s.Weights), n)
	}
	copy(w.w, s.Weights)
	copy(w.opt.m, s.M)
	copy(w.opt.v, s.V)
	w.opt.t = s.Step
	return nil
}

// MarshalJSON writes s with a BestLoss of NaN (no validation rows, so no
// best loss) as null, since JSON has no NaN.
func (s State) MarshalJSON() ([]byte, error) {
	type plain State
	out := struct {
		plain
		BestLoss *float64 `json:"best_loss"`
	}{plain: plain(s)}
	if !math.IsNaN(s.BestLoss) {
		out.BestLoss = &s.BestLoss
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes: a null best_loss is NaN.
func (s *State) UnmarshalJSON(data []byte) error {
	type plain State
	in := struct {
		*plain
		BestLoss *float64 `json:"best_loss"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	s.BestLoss = math.NaN()
	if in.BestLoss != nil {
		s.BestLoss = *in.BestLoss
	}
	return nil
}
