package gat

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// Config are the options of a training run. Defaults are the published
// configuration (see DefaultConfig).
type Config struct {
	Window        int     `json:"window"`
	Hidden        []int   `json:"hidden"`
	Heads         int     `json:"heads"`
	Epochs        int     `json:"epochs"`
	LR            float64 `json:"lr"`
	Momentum      float64 `json:"momentum"`
	Optimizer     string  `json:"optimizer"` // "sgd" or "adam"
	BatchSize     int     `json:"batch_size"`
	TrainFraction float64 `json:"train_fraction"`
	Patience      int     `json:"patience"` // epochs without a lower training MSE before stopping; 0 never stops early
	Workers       int     `json:"workers"`
	Seed          uint64  `json:"seed"`
	Neighbors     int     `json:"neighbors"` // edges kept per node, by |correlation|; 0 keeps all
}

// DefaultConfig is the published configuration.
func DefaultConfig() Config {
	return Config{Window: 4, Hidden: []int{16, 16}, Heads: 1, Epochs: 200, LR: 0.005, Momentum: 0.9,
		Optimizer: "sgd", BatchSize: 32, TrainFraction: 0.7, Workers: 1}
}

// Epoch reports one epoch: the mean squared error over the training and the
// test samples after it, whether the training MSE is the lowest so far, and
// the time since training started.
type Epoch struct {
	Epoch             int
	TrainMSE, TestMSE float64
	Best              bool
	Elapsed           time.Duration
	// Snapshot copies the model as it is after this epoch; it may be
	// called only while the report of the epoch runs.
	Snapshot func() *Model
}

// Train trains a network on m. report is called after every epoch, from
// one goroutine; an error from it, or ctx's, stops training. Workers split
// every mini-batch and average their gradients through a parallel.Local
// collective, so the result depends on the seed and the data, and on the
// number of workers only through the order of floating-point sums.
func Train(ctx context.Context, cfg Config, m series.Matrix, report func(Epoch) error) (*Model, error) {
	return TrainFrom(ctx, cfg, m, Start{}, report)
}

// Start is where a training run begins: from scratch (the zero Start), or
// from a model's weights after the epochs it has done. The optimiser's
// state (momentum, Adam's moments) starts afresh either way.
type Start struct {
	Model *Model
	Epoch int
}

// TrainFrom trains as Train does, from start: epochs are numbered on from
// start.Epoch, up to cfg.Epochs. The model's architecture must be cfg's.
func TrainFrom(ctx context.Context, cfg Config, m series.Matrix, start Start, report func(Epoch) error) (*Model, error) {
	train, test, err := series.Split(m, cfg.Window, cfg.TrainFraction)
	if err != nil {
		return nil, err
	}
	run := &training{cfg: cfg, m: m, train: train, test: test, coll: parallel.NewLocal(cfg.Workers),
		start: time.Now(), report: report, first: start.Epoch + 1}
	init := newNet(cfg.Window, cfg.Hidden, cfg.Heads, rand.New(rand.NewPCG(cfg.Seed, 0)))
	if start.Model != nil {
		from, err := start.Model.net()
		if err != nil {
			return nil, err
		}
		if !sameShapes(init, from) {
			return nil, fmt.Errorf("gat: the model to resume has another architecture than window %d, hidden %v, heads %d",
				cfg.Window, cfg.Hidden, cfg.Heads)
		}
		init.copyWeights(from)
	}
	workers := make([]*worker, cfg.Workers)
	for rank := range workers {
		workers[rank] = run.newWorker(rank, init)
	}
	if err := parallel.Run(ctx, cfg.Workers, func(ctx context.Context, rank int) error { return workers[rank].loop(ctx) }); err != nil {
		return nil, err
	}
	return newModel(cfg, m, run.final), nil
}

// training is the state the workers of one run share.
type training struct {
	cfg         Config
	m           series.Matrix
	train, test []int
	coll        parallel.Collective
	start       time.Time
	report      func(Epoch) error
	first       int  // the number of the first epoch to run
	final       *Net // rank 0's network when training ends
}

// worker is one data-parallel worker with its own replica and optimiser.
type worker struct {
	*training
	rank int
	net  *Net
	opt  nn.Optimizer
	buf  []float64
	s    sampler
}

func (r *training) newWorker(rank int, init *Net) *worker {
	net := newNet(r.cfg.Window, r.cfg.Hidden, r.cfg.Heads, rand.New(rand.NewPCG(r.cfg.Seed, 0)))
	net.copyWeights(init)
	var opt nn.Optimizer = nn.NewSGD(r.cfg.LR, r.cfg.Momentum)
	if r.cfg.Optimizer == "adam" {
		opt = nn.NewAdam(r.cfg.LR)
	}
	return &worker{training: r, rank: rank, net: net, opt: opt, s: newSampler(r.m, r.cfg.Window, r.cfg.Neighbors)}
}

// loop runs every epoch on this worker.
func (w *worker) loop(ctx context.Context) error {
	best, since := math.Inf(1), 0
	for epoch := w.first; epoch <= w.cfg.Epochs; epoch++ {
		order := shuffled(w.train, w.cfg.Seed, epoch)
		for from := 0; from < len(order); from += w.cfg.BatchSize {
			if err := w.step(ctx, order[from:min(from+w.cfg.BatchSize, len(order))]); err != nil {
				return err
			}
		}
		e, err := w.evaluate(ctx, epoch)
		if err != nil {
			return err
		}
		if e.Best = e.TrainMSE < best; e.Best {
			best, since = e.TrainMSE, 0
		} else {
			since++
		}
		if w.rank == 0 && w.report != nil {
			e.Snapshot = func() *Model { return newModel(w.cfg, w.m, w.net) }
			if err := w.report(e); err != nil {
				return err
			}
		}
		if w.cfg.Patience > 0 && since >= w.cfg.Patience {
			break
		}
	}
	if w.rank == 0 {
		w.final = w.net
	}
	return nil
}

// share is this worker's contiguous part of samples.
func (w *worker) share(samples []int) []int {
	n := w.coll.Size()
	return samples[w.rank*len(samples)/n : (w.rank+1)*len(samples)/n]
}

// step trains on one mini-batch: gradients of the summed squared error on
// this worker's share, summed over workers, divided by the batch's cells.
func (w *worker) step(ctx context.Context, batch []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, p := range w.net.Params() {
		p.ZeroGrad()
	}
	for _, t := range w.share(batch) {
		pred, target := w.s.predict(w.net, t)
		dy := mat.NewDense(w.m.N, 1, nil)
		for i := range w.m.N {
			dy.Set(i, 0, 2*(pred.At(i, 0)-target[i]))
		}
		w.net.backward(dy)
	}
	w.buf = w.net.flatGrads(w.buf[:0])
	if err := w.coll.AllReduceSum(ctx, w.rank, w.buf); err != nil {
		return err
	}
	w.net.setGrads(w.buf, 1/float64(len(batch)*w.m.N))
	w.opt.Step(w.net.Params())
	return nil
}

// evaluate computes the epoch's training and test MSE across the workers.
func (w *worker) evaluate(ctx context.Context, epoch int) (Epoch, error) {
	sums := []float64{w.s.sse(w.net, w.share(w.train)), w.s.sse(w.net, w.share(w.test))}
	if err := w.coll.AllReduceSum(ctx, w.rank, sums); err != nil {
		return Epoch{}, err
	}
	return Epoch{Epoch: epoch, TrainMSE: sums[0] / float64(len(w.train)*w.m.N),
		TestMSE: sums[1] / float64(len(w.test)*w.m.N), Elapsed: time.Since(w.start)}, nil
}

// shuffled is samples in the order of epoch: the same on every worker and run.
func shuffled(samples []int, seed uint64, epoch int) []int {
	out := append([]int(nil), samples...)
	rng := rand.New(rand.NewPCG(seed, uint64(epoch)))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// Validate reports the first option out of range.
func (c Config) Validate() error {
	switch {
	case c.Window < 1:
		return fmt.Errorf("window %d must be at least 1", c.Window)
	case c.Heads < 1:
		return fmt.Errorf("heads %d must be at least 1", c.Heads)
	case c.Epochs < 1:
		return fmt.Errorf("epochs %d must be at least 1", c.Epochs)
	case c.BatchSize < 1:
		return fmt.Errorf("batch_size %d must be at least 1", c.BatchSize)
	case c.Workers < 1:
		return fmt.Errorf("workers %d must be at least 1", c.Workers)
	}
	return nil
}
