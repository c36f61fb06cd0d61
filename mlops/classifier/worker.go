package classifier

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// worker is one data-parallel worker: its network instance, its copy of
// the weights and optimiser state, and its batch buffers.
type worker struct {
	net        *net
	cfg        Config
	regression bool
	train, val *Data
	coll       parallel.Collective
	rank       int
	report     func(Epoch) error // rank 0 only

	w, g, best []float64
	opt        *optimizer
	xb, dout   []float64
	labels     []int
	targets    []float64
	ids        []uint64
}

func newWorker(nw Network, cfg Config, train, val *Data, coll parallel.Collective, rank int) (*worker, error) {
	n, err := buildNet(nw.Arch, shape{nw.H, nw.W, nw.C})
	if err != nil {
		return nil, err
	}
	p := n.params()
	return &worker{net: n, cfg: cfg, regression: nw.Regression, train: train, val: val, coll: coll, rank: rank,
		w: make([]float64, p), g: make([]float64, p), opt: newOptimizer(cfg, p)}, nil
}

// check reports data that does not fit the network.
func (w *worker) check() error {
	if w.regression && w.net.outputs() != 1 {
		return fmt.Errorf("regressor with %d outputs: want 1", w.net.outputs())
	}
	for _, d := range []struct {
		name string
		data *Data
	}{{"training", w.train}, {"validation", w.val}} {
		if d.data.Examples == nil && len(d.data.X) != d.data.Rows*w.net.in.size() {
			return fmt.Errorf("%s data of %d values for %d rows of %d: sizes differ", d.name, len(d.data.X), d.data.Rows, w.net.in.size())
		}
		if !w.regression && len(d.data.Labels) != d.data.Rows || w.regression && len(d.data.Targets) != d.data.Rows {
			return fmt.Errorf("%s data of %d rows without one label or target per row", d.name, d.data.Rows)
		}
		if cw := w.cfg.ClassWeights; cw != nil && len(cw) != w.net.outputs() {
			return fmt.Errorf("%d class weights for %d classes", len(cw), w.net.outputs())
		}
		for _, l := range d.data.Labels {
			if l < 0 || l >= w.net.outputs() {
				return fmt.Errorf("%s label %d: want 0 to %d", d.name, l, w.net.outputs()-1)
			}
		}
	}
	if w.train.Rows == 0 {
		return fmt.Errorf("training data has no rows")
	}
	return nil
}

// loop trains every epoch after from's (from the first when from is
// nil), stopping early as cfg.Patience says.
func (w *worker) loop(ctx context.Context, from *State) error {
	start := time.Now()
	bestLoss, since, first := math.NaN(), 0, 1
	if from != nil {
		bestLoss, since, first = from.BestLoss, from.Since, from.Epoch+1
		w.best = append(w.best[:0], from.Best...)
		if from.Epoch > 0 && from.Since >= w.cfg.Patience && w.cfg.Patience > 0 {
			return nil
		}
	}
	for epoch := first; epoch <= w.cfg.Epochs; epoch++ {
		trainLoss, err := w.epoch(ctx, epoch)
		if err != nil {
			return err
		}
		e, err := w.evaluate(ctx, w.val)
		if err != nil {
			return err
		}
		e.Epoch, e.TrainLoss, e.Elapsed = epoch, trainLoss, time.Since(start)
		if w.val.Rows == 0 || isBetter(e.ValLoss, bestLoss) {
			bestLoss, since = e.ValLoss, 0
			w.best = append(w.best[:0], w.w...)
		} else {
			since++
		}
		if w.report != nil {
			e.Weights = w.w
			e.State = w.state(epoch, bestLoss, since)
			if err := w.report(e); err != nil {
				return err
			}
		}
		if w.cfg.Patience > 0 && since >= w.cfg.Patience {
			break
		}
	}
	return nil
}

// epoch runs one pass over the training data and returns its mean loss.
func (w *worker) epoch(ctx context.Context, epoch int) (float64, error) {
	perm := permutation(w.cfg.Seed, epoch, w.train.Rows)
	var sum float64
	for start := 0; start < len(perm); start += w.cfg.BatchSize {
		end := min(start+w.cfg.BatchSize, len(perm))
		size := end - start
		lo := start + size*w.rank/w.cfg.Workers
		hi := start + size*(w.rank+1)/w.cfg.Workers
		clear(w.g)
		if hi > lo {
			b, err := w.gather(w.train, perm[lo:hi], epoch)
			if err != nil {
				return 0, err
			}
			sum += w.lossGrad(b, 1/float64(size))
		}
		if err := w.coll.AllReduceSum(ctx, w.rank, w.g); err != nil {
			return 0, err
		}
		w.opt.step(w.w, w.g)
	}
	total := []float64{sum}
	if err := w.coll.AllReduceSum(ctx, w.rank, total); err != nil {
		return 0, err
	}
	return total[0] / float64(w.train.Rows), nil
}

// gather copies the rows idx of d into the batch buffers.
func (w *worker) gather(d *Data, idx []int, epoch int) (*batch, error) {
	dim := w.net.in.size()
	w.xb = grow(w.xb, len(idx)*dim)
	ex := d.Examples
	if ex == nil {
		ex = memExamples{x: d.X, dim: dim}
	}
	if err := ex.Gather(idx, w.xb[:len(idx)*dim]); err != nil {
		return nil, err
	}
	w.labels, w.targets, w.ids = w.labels[:0], w.targets[:0], w.ids[:0]
	for _, r := range idx {
		if w.regression {
			w.targets = append(w.targets, d.Targets[r])
		} else {
			w.labels = append(w.labels, d.Labels[r])
		}
		w.ids = append(w.ids, uint64(r))
	}
	return &batch{n: len(idx), train: true, ids: w.ids, seed: w.cfg.Seed, epoch: epoch}, nil
}

// lossGrad runs the batch forward and backward, adding scale times the
// gradient of its summed loss into w.g, and returns the summed loss.
func (w *worker) lossGrad(b *batch, scale float64) float64 {
	out := w.net.forward(w.w, w.xb, b)
	w.dout = grow(w.dout, len(out))
	var loss float64
	if w.regression {
		loss = squaredError(out, w.targets, scale, w.dout)
	} else {
		loss, _ = softmaxCE(out, w.net.outputs(), w.labels, w.cfg.ClassWeights, scale, w.dout)
	}
	w.net.backward(w.w, w.g, w.dout, b)
	return loss
}

// state is a copy of what training after epoch needs to go on as if it
// had not stopped.
func (w *worker) state(epoch int, bestLoss float64, since int) func() *State {
	return func() *State {
		return &State{Epoch: epoch, Weights: slices.Clone(w.w), M: slices.Clone(w.opt.m), V: slices.Clone(w.opt.v), Step: w.opt.t,
			Best: slices.Clone(w.best), BestLoss: bestLoss, Since: since}
	}
}
