package recommender

import (
	"context"
	"math"
	"sort"
	"time"

	"gonum.org/v1/gonum/floats"
)

// worker is one data-parallel worker: its replica of the dense part with
// its optimiser state, and views of the shared tables.
type worker struct {
	*training
	rank    int
	net     *net
	denseMV []float32
	opt     optimizer
	g       *grads
	t       *trace
	ge, gd  []float64 // a table row's gradient summed over the workers
	ev      *evaluator
}

func (r *training) newWorker(rank int, dense []float64) *worker {
	n := newNet(r.cfg, r.train.Items, r.enc, append([]float64(nil), dense...), r.dec)
	w := &worker{training: r, rank: rank, net: n, opt: newOptimizer(r.cfg), g: newGrads(n), t: newTrace(r.cfg.Hidden),
		ge: make([]float64, len(n.encRow(0))), gd: make([]float64, len(n.decRow(0)))}
	w.denseMV = w.opt.moments(len(n.dense))
	w.ev = newEvaluator(n, r.train, r.test, r.scale, r.cfg.Relevant)
	return w
}

// loop runs every epoch on this worker.
func (w *worker) loop(ctx context.Context) error {
	for epoch := w.first; epoch <= w.cfg.Epochs; epoch++ {
		order := shuffled(w.users, w.cfg.Seed, epoch)
		for from := 0; from < len(order); from += w.cfg.BatchSize {
			if err := w.step(ctx, order[from:min(from+w.cfg.BatchSize, len(order))]); err != nil {
				return err
			}
		}
		e, err := w.evaluate(ctx, epoch)
		if err != nil {
			return err
		}
		if w.rank == 0 && w.report != nil {
			e.Snapshot = func() *Model { return w.model(w.net) }
			if err := w.report(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// step trains on one mini-batch of users. Each worker adds the gradient
// of its share of the users into its own grads; the all-reduce of the
// dense part is also the point after which every worker's grads are
// complete. Each worker then sums, in rank order, the table rows of the
// items it owns (item mod workers) and steps them, while every worker
// steps its replica of the dense part alike. The barrier at the end keeps
// the next batch from reading rows still moving.
func (w *worker) step(ctx context.Context, batch []int) error {
	if _, err := w.gradient(ctx, batch); err != nil {
		return err
	}
	w.opt.next()
	w.stepTables()
	w.opt.update(w.net.dense, w.denseMV, w.g.dense)
	return w.coll.Barrier(ctx, w.rank)
}

// gradient computes the gradient of the batch's loss: the mean squared
// error over the batch's ratings, in [0, 1], plus L2/2 times the sum of
// squares of the inner layers' weights, plus, for each item the batch
// rated, penalty[item]/2 times the sum of squares of its table rows (its
// encoder weights and its output offsets). It leaves this worker's part of
// the tables' gradient, without the penalty, in w.g (rowGradient completes
// it) and the whole dense gradient in w.g.dense, and returns the squared
// errors of its share.
func (w *worker) gradient(ctx context.Context, batch []int) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	w.g.reset()
	weight := 1 / float64(w.ratings(batch))
	var sse float64
	for _, u := range w.share(batch) {
		items, vals := w.train.Row(u)
		sse += w.net.learn(items, vals, w.scale, weight, w.t, w.g)
	}
	if err := w.coll.AllReduceSum(ctx, w.rank, w.g.dense); err != nil {
		return 0, err
	}
	w.net.addPenalty(w.g.dense, w.cfg.L2)
	return sse, nil
}

// ratings is the number of training ratings of users.
func (w *worker) ratings(users []int) int {
	n := 0
	for _, u := range users {
		n += w.train.Ptr[u+1] - w.train.Ptr[u]
	}
	return n
}

// share is this worker's contiguous part of batch, cut so that the
// workers get about as many ratings each.
func (w *worker) share(batch []int) []int {
	total, size := w.ratings(batch), len(w.workers)
	lo, hi := -1, len(batch)
	seen := 0
	for i, u := range batch {
		if lo < 0 && seen*size >= total*w.rank {
			lo = i
		}
		if seen*size >= total*(w.rank+1) {
			hi = i
			break
		}
		seen += w.train.Ptr[u+1] - w.train.Ptr[u]
	}
	if lo < 0 {
		lo = len(batch)
	}
	return batch[lo:max(lo, hi)]
}

// stepTables steps every table row of the batch that this worker owns.
func (w *worker) stepTables() {
	w.eachOwnedRow(func(j int32) {
		w.opt.update(w.net.encRow(j), rowOf(w.encMV, j, 2*w.g.wEnc), w.ge)
		w.opt.update(w.net.decRow(j), rowOf(w.decMV, j, 2*w.g.wDec), w.gd)
	})
}

// eachOwnedRow calls f for every item of the batch that this worker owns,
// with the item's whole gradient rows, summed over the workers in rank
// order and the penalty added, in w.ge and w.gd. The first worker (in
// rank order) whose share used an item finds it.
func (w *worker) eachOwnedRow(f func(j int32)) {
	size := len(w.workers)
	for r, other := range w.workers {
		for s, j := range other.g.items {
			if int(j)%size == w.rank && !w.usedBefore(r, j) {
				w.rowGradient(j, r, s)
				f(j)
			}
		}
	}
}

// usedBefore reports whether a worker of rank below r used item j.
func (w *worker) usedBefore(r int, j int32) bool {
	for _, other := range w.workers[:r] {
		if _, ok := other.g.find(j); ok {
			return true
		}
	}
	return false
}

// rowGradient sets w.ge and w.gd to item j's gradient rows summed over the
// workers from rank first (slot s there), plus the penalty's.
func (w *worker) rowGradient(j int32, first, s int) {
	g := w.workers[first].g
	copy(w.ge, g.enc[s*g.wEnc:(s+1)*g.wEnc])
	copy(w.gd, g.dec[s*g.wDec:(s+1)*g.wDec])
	for _, other := range w.workers[first+1:] {
		if s, ok := other.g.find(j); ok {
			floats.Add(w.ge, other.g.enc[s*g.wEnc:(s+1)*g.wEnc])
			floats.Add(w.gd, other.g.dec[s*g.wDec:(s+1)*g.wDec])
		}
	}
	if l2 := w.penalty[j]; l2 != 0 {
		floats.AddScaled(w.ge, l2, w.net.encRow(j))
		floats.AddScaled(w.gd, l2, w.net.decRow(j))
	}
}

// rowOf is row j of a table of the given width, or nil for a nil table.
func rowOf[T float32 | float64](table []T, j int32, width int) []T {
	if table == nil {
		return nil
	}
	return table[int(j)*width : int(j+1)*width]
}

// evaluate measures the model after an epoch. Each worker scores its share
// of the users into the run's per-user results; rank 0 sums them in user
// order, so the metrics do not depend on the number of workers beyond the
// weights themselves. Only rank 0's Epoch is filled in.
func (w *worker) evaluate(ctx context.Context, epoch int) (Epoch, error) {
	lo, hi := w.userShare()
	for u := lo; u < hi; u++ {
		a, base := w.ev.code(u)
		items, vals := w.train.Row(u)
		w.trainSSE[u] = w.ev.sse(items, vals, a, base)
		items, vals = w.test.Row(u)
		w.testSSE[u] = w.ev.sse(items, vals, a, base)
	}
	size := len(w.workers)
	rlo, rhi := w.rank*len(w.ranked)/size, (w.rank+1)*len(w.ranked)/size
	w.ev.rank(w.ranked[rlo:rhi], w.recall[rlo:rhi], w.ndcg[rlo:rhi])
	if err := w.coll.Barrier(ctx, w.rank); err != nil || w.rank != 0 {
		return Epoch{}, err
	}
	return Epoch{Epoch: epoch,
		TrainRMSE: math.Sqrt(sum(w.trainSSE) / float64(w.train.Len())), TestRMSE: math.Sqrt(sum(w.testSSE) / float64(w.test.Len())),
		RecallAt10: mean(w.recall), NDCGAt10: mean(w.ndcg), Elapsed: time.Since(w.start)}, nil
}

// userShare is this worker's range of users for evaluation, cut so that
// the workers get about as many training and test ratings each.
func (w *worker) userShare() (lo, hi int) {
	total, size := w.train.Len()+w.test.Len(), len(w.workers)
	cut := func(part int) int {
		return sort.Search(w.train.Users, func(u int) bool {
			return (w.train.Ptr[u]+w.test.Ptr[u])*size >= total*part
		})
	}
	return cut(w.rank), cut(w.rank + 1)
}

// sum adds xs in order.
func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// mean is the mean of xs in order, NaN for none.
func mean(xs []float64) float64 { return sum(xs) / float64(len(xs)) }
