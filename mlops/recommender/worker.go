package recommender

import (
	"cmp"
	"context"
	"slices"
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
	rk      *ranker // nil for the rating objective
	deal    deal
	// epoch and batch number the batch in training (epochs from 1, batches
	// from 0): the ranking objective draws its negatives and dropout masks
	// from them. loss sums this worker's share of the epoch's loss.
	epoch, batch int
	loss         float64
	spent        WorkerTime    // in the epoch so far
	reduced      time.Duration // in the last batch's all-reduce
	ahead        time.Duration // stepping rows ahead in the last batch (see stepAhead)
	ow           *ownedWork    // across processes (see ownedRows); nil when whole
	steps        int64         // the batches this worker has computed its share of
	// others marks the items the other workers' shares of the batch rated
	// (those with others[j] == othersGen), found when stepAhead needs them.
	others    []uint32
	othersGen uint32
}

// deal is the scratch space in which share deals a batch.
type deal struct {
	others         []int // the batch's users dealt to the other workers
	order, mine    []int // the batch's users in dealing order; this worker's
	ratings, users []int // by rank, what each worker has been dealt
	held           []int // with a shard, the batch's users this process holds
}

func (r *training) newWorker(rank int, dense []float64) *worker {
	n := newNet(r.cfg, r.train.Items, r.enc, append([]float64(nil), dense...), r.dec)
	w := &worker{training: r, rank: rank, net: n, opt: newOptimizer(r.cfg), g: newGrads(n), t: newTrace(r.cfg.Hidden),
		ge: make([]float64, len(n.encRow(0))), gd: make([]float64, len(n.decRow(0)))}
	n.cut = r.scale.in(r.cfg.Relevant)
	if r.cfg.ranking() {
		w.rk = newRanker()
	}
	w.denseMV = w.opt.moments(len(n.dense))
	if r.cfg.Workers > 1 {
		w.others = make([]uint32, r.train.Items)
	}
	w.deal.ratings, w.deal.users = make([]int, r.cfg.Workers), make([]int, r.cfg.Workers)
	w.ev = newEvaluator(n, r.train, r.test, r.scale, r.cfg.Relevant)
	if !r.whole {
		w.ow = &ownedWork{at: make([]int32, r.train.Users)}
	}
	return w
}

// loop runs every epoch on this worker.
func (w *worker) loop(ctx context.Context) error {
	if w.ow != nil && w.shard != nil {
		if err := w.exchangeOwned(ctx); err != nil {
			return err
		}
	}
	for epoch := w.first; epoch <= w.cfg.Epochs; epoch++ {
		if w.rank == w.lead {
			// No worker claims users to evaluate now: all have passed the
			// last evaluation's barrier, and none reaches this one before
			// the first step's all-reduce, which waits for rank 0.
			w.evaluated.reset()
		}
		order := shuffled(w.users, w.cfg.Seed, epoch)
		w.epoch, w.loss = epoch, 0
		for from := 0; from < len(order); from += w.cfg.BatchSize {
			w.batch = from / w.cfg.BatchSize
			if err := w.step(ctx, order[from:min(from+w.cfg.BatchSize, len(order))]); err != nil {
				return err
			}
		}
		if w.ow != nil {
			if err := w.gatherOwned(ctx); err != nil {
				return err
			}
		}
		started := time.Now()
		w.losses[w.rank] = w.loss // before evaluate, which sums them across processes
		e, err := w.evaluate(ctx, epoch)
		if err != nil {
			return err
		}
		w.spent.Evaluate = time.Since(started)
		w.times[w.rank] = w.spent
		w.spent = WorkerTime{}
		if err := w.coll.Barrier(ctx, w.rank); err != nil { // every worker's time is in
			return err
		}
		if w.rank == 0 && w.report != nil {
			e.Workers = append([]WorkerTime(nil), w.times...)
			if w.whole {
				e.TrainLoss = sum(w.losses) / float64(w.lossCount(w.users))
			}
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
// complete. The workers then claim the batch's table rows, sum each one's
// gradient over the workers in rank order and step it, while every worker
// steps its replica of the dense part alike. The barrier at the end keeps
// the next batch from reading rows still moving. Across processes,
// stepOwned trains on the batch instead.
func (w *worker) step(ctx context.Context, batch []int) error {
	if w.ow != nil {
		return w.stepOwned(ctx, batch)
	}
	if w.rank == w.lead {
		// No worker claims rows now: all have passed the last batch's
		// barrier, and none passes this one's all-reduce before rank 0.
		w.rows.reset()
	}
	w.opt.next()
	t0 := time.Now()
	loss, err := w.gradient(ctx, batch, w.stepAhead)
	if err != nil {
		return err
	}
	w.loss += loss
	t1 := time.Now()
	w.stepTables()
	w.opt.update(w.net.dense, w.denseMV, w.g.dense)
	t2 := time.Now()
	err = w.coll.Barrier(ctx, w.rank)
	w.spent.Step += t2.Sub(t1) + w.ahead
	w.spent.Barrier += time.Since(t2)
	w.spent.Gradient += t1.Sub(t0) - w.reduced - w.ahead
	w.spent.Reduce += w.reduced
	return err
}

// stepAhead steps, while another worker is still computing its share of
// the batch's gradient, the table rows of items that no other worker's
// share rated: their gradient is this worker's part alone, complete now,
// and no other worker reads them until the step's barrier. So a worker
// that finishes its share first does, instead of waiting in the
// all-reduce, work that would otherwise follow it. A row steps alike
// whenever and by whomever it is stepped; the rows left are stepped after
// the all-reduce with the rest (see eachRow).
func (w *worker) stepAhead() {
	w.ahead = 0
	size := int64(len(w.workers))
	if size == 1 {
		return
	}
	if w.batch == 0 && w.report != nil {
		// Rank 0 may still be reporting the last epoch, its snapshot
		// reading the tables: it reaches this batch's all-reduce only
		// after, and the rows step once all have passed it.
		return
	}
	w.steps++
	all := size * w.steps // the arrivals once every worker has computed its share of this batch
	if w.arrived.Add(1) == all {
		return
	}
	start := time.Now()
	w.markOthers()
	for s, j := range w.g.items {
		if w.arrived.Load() == all {
			break
		}
		if w.others[j] != w.othersGen {
			w.ownRowGradient(j, s)
			w.stepRow(j)
			w.g.ahead[s] = true
			w.steppedAhead.Add(1)
		}
	}
	w.ahead = time.Since(start)
}

// markOthers marks the items the other workers' shares of the batch rated.
func (w *worker) markOthers() {
	if w.othersGen++; w.othersGen == 0 {
		clear(w.others)
		w.othersGen = 1
	}
	for _, u := range w.deal.others {
		items, _ := w.train.Row(u)
		for _, j := range items {
			w.others[j] = w.othersGen
		}
	}
	if w.rk != nil && len(w.deal.others) > 0 { // every share with a user uses the negatives
		for _, j := range w.negatives().items {
			w.others[j] = w.othersGen
		}
	}
}

// gradient computes the gradient of the batch's loss: the mean squared
// error over the batch's ratings, in [0, 1] (or the ranking loss, see
// rankShare), plus L2/2 times the sum of squares of the inner layers'
// weights, plus, for each item whose rows the batch uses, penalty[item]/2
// times the sum of squares of its table rows (its encoder weights and its
// output offsets). It leaves this worker's part of the tables' gradient,
// without the penalty, in w.g (rowGradient completes it) and the whole
// dense gradient in w.g.dense, and returns the loss of its share,
// unweighted (the squared errors, or the users' ranking losses).
// meanwhile, if not nil, runs between this worker's share and the
// all-reduce.
func (w *worker) gradient(ctx context.Context, batch []int, meanwhile func()) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	w.g.reset()
	weight := 1 / float64(w.lossCount(batch))
	var loss float64
	if w.rk != nil {
		loss = w.rankShare(w.share(batch), weight)
	} else {
		for _, u := range w.share(batch) {
			items, vals := w.train.Row(u)
			loss += w.net.learn(items, vals, w.scale, weight, w.t, w.g)
		}
	}
	if w.shareDone != nil {
		w.shareDone(w.rank)
	}
	if meanwhile != nil {
		meanwhile()
	}
	reducing := time.Now()
	if err := w.coll.AllReduceSum(ctx, w.rank, w.g.dense); err != nil {
		return 0, err
	}
	w.reduced = time.Since(reducing)
	w.net.addPenalty(w.g.dense, w.cfg.L2)
	return loss, nil
}

// lossCount is what the loss of users is the mean over: their ratings for
// the rating objective, the users themselves for the ranking one.
func (w *worker) lossCount(users []int) int {
	if w.rk != nil {
		return len(users)
	}
	return w.ratings(users)
}

// ratings is the number of training ratings of users.
func (w *worker) ratings(users []int) int {
	n := 0
	for _, u := range users {
		n += w.rated(u)
	}
	return n
}

// rated is the number of training ratings of user u.
func (w *worker) rated(u int) int {
	if w.shard != nil {
		return w.shard.Rated[u]
	}
	return w.train.Ptr[u+1] - w.train.Ptr[u]
}

// share is this worker's part of batch. The users are dealt, most
// ratings first, each to the worker with the fewest ratings so far among
// those that have fewer than their part of the users, the lower rank on
// ties; every worker deals alike, so the shares partition the batch. So
// the workers get about as many ratings each, and as many users (give or
// take one), each of whom also costs a pass through the dense layers.
// (Cut into contiguous runs of about as many ratings, the batch gave the
// user across a cut, likely a heavy one, whole to the lower rank, which
// had about a tenth more work than the next, and the others waited for it
// at every step.)
func (w *worker) share(batch []int) []int {
	if w.shard != nil && !w.whole {
		return w.ownShare(batch)
	}
	return w.dealt(batch, w.coll.Size(), w.rank)
}

// dealt deals batch to size workers as share describes and returns the
// part of worker rank.
func (w *worker) dealt(batch []int, size, rank int) []int {
	part := (len(batch) + size - 1) / size
	d := &w.deal
	d.order = append(d.order[:0], batch...)
	slices.SortStableFunc(d.order, func(u, v int) int { return cmp.Compare(w.rated(v), w.rated(u)) })
	clear(d.ratings)
	clear(d.users)
	d.mine, d.others = d.mine[:0], d.others[:0]
	for _, u := range d.order {
		to := -1
		for r := range size {
			if d.users[r] < part && (to < 0 || d.ratings[r] < d.ratings[to]) {
				to = r
			}
		}
		d.ratings[to] += w.rated(u)
		d.users[to]++
		if to == rank {
			d.mine = append(d.mine, u)
		} else {
			d.others = append(d.others, u)
		}
	}
	return d.mine
}

// stepTables steps the table rows of the batch that this worker claims.
func (w *worker) stepTables() { w.eachRow(w.stepRow) }

// stepRow steps item j's table rows by their gradient in w.ge and w.gd.
func (w *worker) stepRow(j int32) { w.stepRowBy(j, w.ge, w.gd) }

// stepRowBy steps item j's table rows by the gradient rows ge and gd.
func (w *worker) stepRowBy(j int32, ge, gd []float64) {
	w.opt.update(w.net.encRow(j), rowOf(w.encMV, j, 2*w.g.wEnc), ge)
	w.opt.update(w.net.decRow(j), rowOf(w.decMV, j, 2*w.g.wDec), gd)
}

// rowClaim is the number of entries of the workers' grads (see eachRow) a
// worker claims at a time: tens of microseconds of work.
const rowClaim = 16

// eachRow calls f for every item of the batch whose rows this worker
// claims, with the item's whole gradient rows, summed over the workers in
// rank order and the penalty added, in w.ge and w.gd. The entries of the
// workers' grads, in rank order and then slot order, are claimed in runs
// of rowClaim by whichever worker asks next, and an item is stepped at its
// entry in the grads of the first worker whose share used it, unless
// that worker stepped it ahead (see stepAhead). Who steps a
// row changes nothing in the result, so the rows are not dealt out in
// advance: with fixed parts (the items of each residue mod the workers)
// each worker waited at the barrier for the other for a few percent of
// the epoch, more whenever the system took the other's processor away.
func (w *worker) eachRow(f func(j int32)) {
	total := 0
	for _, other := range w.workers {
		total += len(other.g.items)
	}
	for {
		lo, hi := w.rows.claim(rowClaim, total)
		if lo == hi {
			return
		}
		r, base := 0, 0 // entry e is slot e−base of worker r
		for e := lo; e < hi; e++ {
			for e-base >= len(w.workers[r].g.items) {
				base += len(w.workers[r].g.items)
				r++
			}
			if j := w.workers[r].g.items[e-base]; !w.usedBefore(r, j) && !w.workers[r].g.ahead[e-base] {
				w.rowGradient(j, r, e-base)
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
	w.addRowPenalty(j)
}

// ownRowGradient sets w.ge and w.gd to item j's gradient rows when this
// worker alone used it (slot s), plus the penalty's: rowGradient's sum,
// without looking at the other workers' grads, which may be changing.
func (w *worker) ownRowGradient(j int32, s int) {
	g := w.g
	copy(w.ge, g.enc[s*g.wEnc:(s+1)*g.wEnc])
	copy(w.gd, g.dec[s*g.wDec:(s+1)*g.wDec])
	w.addRowPenalty(j)
}

// addRowPenalty adds the gradient of item j's penalty to w.ge and w.gd.
func (w *worker) addRowPenalty(j int32) { w.addRowPenaltyTo(j, w.ge, w.gd) }

// addRowPenaltyTo adds the gradient of item j's penalty to the gradient
// rows ge and gd.
func (w *worker) addRowPenaltyTo(j int32, ge, gd []float64) {
	if l2 := w.penalty[j]; l2 != 0 {
		floats.AddScaled(ge, l2, w.net.encRow(j))
		floats.AddScaled(gd, l2, w.net.decRow(j))
	}
}

// rowOf is row j of a table of the given width, or nil for a nil table.
func rowOf[T float32 | float64](table []T, j int32, width int) []T {
	if table == nil {
		return nil
	}
	return table[int(j)*width : int(j+1)*width]
}
