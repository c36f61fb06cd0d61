package recommender

import (
	"context"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/floats"
)

// ownedRows is how the tables meet across processes. Each row has an
// owner, the process of its item's index mod the processes, which alone
// reads and writes the row during an epoch: what crosses the processes is
// a few vectors per user of the batch, not the rows the batch used. Per
// batch:
//
//  1. each process adds, for every user of the batch, its items' encoder
//     rows times the user's inputs, and an all-reduce sums these into
//     the first hidden layer's pre-activations;
//  2. the worker dealt the user (see worker.share) runs the dense layers
//     forward, and an all-reduce hands every process the user's last
//     hidden activation and its base;
//  3. each process computes its items' outputs for every user of the
//     batch, their errors and dL/do, and an all-reduce sums dL/da of the
//     last hidden layer, Σ dL/do and the loss by user (for the ranking
//     objectives, whose loss at an output depends on every output through
//     the softmax's normaliser, an all-reduce first hands every process
//     each process's part of each user's normaliser);
//  4. the user's worker runs the dense layers backward, and an all-reduce
//     sums the dense gradient together with each user's dL/dz of the first
//     hidden layer;
//  5. each process sums its used rows' gradients over the batch's users,
//     in batch order, and steps them.
//
// The users' vectors are a few hundred values each, where the rows of a
// batch, over all items nearly, are hundreds of thousands (2.9 MB for
// 1,200 items and the default layers, which a reduce-scatter of the used
// rows' gradients to their owners and an all-gather of the stepped rows
// each moved, before): the exchange is four or five all-reduces of
// latency, and each process computes only its items' share of the
// tables' arithmetic. At the end of each epoch an all-gather hands every
// process every row, for evaluation and the model (see gatherOwned).
// Every all-reduce sums in rank order, so every process gets the same
// bits; one process's sums are grouped otherwise (a user's inputs by
// process first), so the curves equal one process's to rounding.
type ownedRows struct {
	processes, process int
	// By user, as in Ratings: its training ratings of this process's
	// items, item[ptr[u]:ptr[u+1]] with ratings x in the input scale, and
	// each one's place among the user's interactions (for the ranking
	// objectives; -1 for a rating below the cut).
	ptr  []int
	item []int32
	x    []float64
	pos  []int32
	// interactions is, by user, its number of interactions (of any
	// process's items).
	interactions []int32
	// By rating, for the current batch: in is the input the network
	// reads (the rating, or the interaction's after dropout), written in
	// step 1 by the worker of the user's part of the batch; dy is dL/do
	// at the output of the item for its user, written in step 3 by that
	// worker. The worker of the item reads both in step 5.
	in, dy []float64
	// logits are, for the ranking objectives, by user of the batch and
	// then by this process's negative, the negative's logit, then dL/dz
	// there (written as dy is).
	logits []float64
}

// ownedWork is one worker's scratch space for ownedRows.
type ownedWork struct {
	z, a, c, d []float64 // the four all-reduces' buffers
	norm       []float64 // the ranking objectives' normalisers' all-reduce
	traces     []*trace  // the passes of this worker's users of the batch
	at         []int32   // by user: its index in the batch (valid for the batch's users)
	negs       []int32   // the batch's negatives of this process's items, by their place in the negatives
	mask       []float64 // a user's inputs after dropout
	gather     []float64 // the epoch's all-gather of rows
}

// ownedRatingsChunk is the number of ratings each process contributes to
// one all-gather when processes that hold their own users only exchange
// their items' ratings (see exchangeOwned): a few megabytes a round. A
// variable so that tests can make rounds small.
var ownedRatingsChunk = 1 << 16

// ownedTuple is the values that stand for a rating in exchangeOwned: its
// user, its item, the rating in the data's scale, its place among the
// user's interactions and the user's interactions.
const ownedTuple = 5

// ownedOf returns the ownedRows of process of processes for a run of cfg
// on train, which holds every user's ratings.
func ownedOf(cfg Config, train Ratings, s scale, processes, process int) *ownedRows {
	cut := s.in(cfg.Relevant)
	o := &ownedRows{processes: processes, process: process, ptr: make([]int, train.Users+1),
		interactions: make([]int32, train.Users)}
	for u := range train.Users {
		items, vals := train.Row(u)
		k := int32(0)
		for i, j := range items {
			x := s.in(float64(vals[i]))
			pos := int32(-1)
			if x >= cut {
				pos, k = k, k+1
			}
			if int(j)%processes == process {
				o.item, o.x, o.pos = append(o.item, j), append(o.x, x), append(o.pos, pos)
			}
		}
		o.interactions[u] = k
		o.ptr[u+1] = len(o.item)
	}
	o.sized(cfg, train.Items)
	return o
}

// sized allocates the per-batch values of a run of cfg over items.
func (o *ownedRows) sized(cfg Config, items int) {
	o.in, o.dy = make([]float64, len(o.item)), make([]float64, len(o.item))
	if cfg.ranking() {
		negs := ownedCount(items, o.processes, o.process)
		if cfg.Negatives > 0 {
			negs = min(negs, cfg.Negatives) // the distinct items of its draws
		}
		o.logits = make([]float64, cfg.BatchSize*negs)
	}
}

// exchangeOwned builds the run's ownedRows where each process holds only
// its own users' ratings (TrainShard): in rounds, every process hands
// every other a chunk of its ratings (see ownedTuple), and keeps those of
// its items. Every worker calls it; the lowest of each process assembles.
func (w *worker) exchangeOwned(ctx context.Context) error {
	s, P, p := w.shard, w.span.processes, w.span.process
	held := make([]int, P) // by process: the ratings it holds
	for u, n := range s.Rated {
		held[s.Owner(u)] += n
	}
	var sent []float64 // by this process's rating: its tuple's last two values
	if w.rank == w.lead {
		for u := range s.Users {
			_, vals := w.train.Row(u)
			k := 0.0
			for _, v := range vals {
				if w.scale.in(float64(v)) >= w.net.cut {
					k++
				}
			}
			pos := 0.0
			for _, v := range vals {
				place := -1.0
				if w.scale.in(float64(v)) >= w.net.cut {
					place, pos = pos, pos+1
				}
				sent = append(sent, place, k)
			}
		}
	}
	o := &ownedRows{processes: P, process: p, ptr: make([]int, s.Users+1), interactions: make([]int32, s.Users)}
	var users []int32 // by received rating: its user
	var buf []float64
	counts := make([]int, P)
	cu, ci, next := 0, 0, 0 // the next of this process's ratings to send: user cu's ci-th, the next-th in all
	for from := 0; from < slices.Max(held); from += ownedRatingsChunk {
		total, at := 0, 0
		for q := range P {
			counts[q] = ownedTuple * max(0, min(ownedRatingsChunk, held[q]-from))
			if q < p {
				at += counts[q]
			}
			total += counts[q]
		}
		buf = resized(buf, total)
		clear(buf)
		if w.rank == w.lead {
			part := buf[at : at+counts[p]]
			for k := 0; k < len(part); k += ownedTuple {
				for ci == w.train.Ptr[cu+1]-w.train.Ptr[cu] {
					cu, ci = cu+1, 0
				}
				its, vals := w.train.Row(cu)
				part[k], part[k+1], part[k+2] = float64(cu), float64(its[ci]), float64(vals[ci])
				part[k+3], part[k+4] = sent[2*next], sent[2*next+1]
				ci, next = ci+1, next+1
			}
		}
		if err := w.coll.(gatherer).AllGather(ctx, w.rank, buf, counts); err != nil {
			return err
		}
		if w.rank == w.lead {
			for k := 0; k < total; k += ownedTuple {
				u := int32(buf[k])
				o.interactions[u] = int32(buf[k+4])
				if j := int32(buf[k+1]); int(j)%P == p {
					users = append(users, u)
					o.item, o.x, o.pos = append(o.item, j), append(o.x, w.scale.in(buf[k+2])), append(o.pos, int32(buf[k+3]))
				}
			}
		}
	}
	if w.rank == w.lead {
		// Sort by user, stably: a user's ratings arrive in its row's order.
		for _, u := range users {
			o.ptr[u+1]++
		}
		for u := range s.Users {
			o.ptr[u+1] += o.ptr[u]
		}
		item, x, pos := make([]int32, len(users)), make([]float64, len(users)), make([]int32, len(users))
		fill := slices.Clone(o.ptr[:s.Users])
		for k, u := range users {
			item[fill[u]], x[fill[u]], pos[fill[u]] = o.item[k], o.x[k], o.pos[k]
			fill[u]++
		}
		o.item, o.x, o.pos = item, x, pos
		o.sized(w.cfg, w.train.Items)
		w.owned = o
	}
	return w.coll.Barrier(ctx, w.rank)
}

// stepOwned trains on one mini-batch of users where the tables meet as
// ownedRows: see there for the steps. A worker of a process takes part of
// each step by users (its contiguous part of the batch for the items'
// arithmetic, the users it is dealt for the dense layers) or by items (the
// process's items j with j/processes mod its workers its local index),
// so that no two workers of a process write the same values.
func (w *worker) stepOwned(ctx context.Context, batch []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	o, ow, n, g := w.owned, w.ow, w.net, w.g
	h1, hL := n.sizes[0], n.sizes[len(n.sizes)-1]
	local, locals := w.rank-w.lead, len(w.workers)
	lo, hi := local*len(batch)/locals, (local+1)*len(batch)/locals
	started := time.Now()
	var reducing time.Duration
	allReduce := func(buf []float64) error {
		t := time.Now()
		err := w.coll.AllReduceSum(ctx, w.rank, buf)
		reducing += time.Since(t)
		return err
	}
	w.opt.next()
	g.reset()
	weight := 1 / float64(w.lossCount(batch))
	for i, u := range batch {
		ow.at[u] = int32(i)
	}
	var neg *negatives
	if w.rk != nil {
		neg = w.negatives()
		ow.negs = ow.negs[:0]
		for s, j := range neg.items {
			if int(j)%o.processes == o.process {
				ow.negs = append(ow.negs, int32(s))
			}
		}
	}

	// 1. The first hidden layer's pre-activations, less the bias.
	z := resized(ow.z, len(batch)*h1)
	ow.z = z
	clear(z)
	for i := lo; i < hi; i++ {
		w.ownedInputs(batch[i])
		zi := z[i*h1 : (i+1)*h1]
		for r := o.ptr[batch[i]]; r < o.ptr[batch[i]+1]; r++ {
			if x := o.in[r]; x != 0 {
				floats.AddScaled(zi, x, n.encRow(o.item[r]))
			}
		}
	}
	if err := allReduce(z); err != nil {
		return err
	}

	// 2. The dense layers forward, for this worker's users.
	mine := w.share(batch)
	for len(ow.traces) < len(mine) {
		ow.traces = append(ow.traces, newTrace(n.sizes))
	}
	a := resized(ow.a, len(batch)*(hL+1))
	ow.a = a
	clear(a)
	beta := 0.0
	if n.head != 0 {
		beta = w.beta()
	}
	for k, u := range mine {
		i, t := int(ow.at[u]), ow.traces[k]
		if n.head != 0 {
			w.rankInputs(u, t) // the code's noise
		}
		copy(t.z[0], n.dense[:h1])
		floats.Add(t.z[0], z[i*h1:(i+1)*h1])
		act := n.forward(t)
		if t.vae != nil {
			w.loss += beta * n.sample(t)
			t.vae.klWeight = weight * beta
		}
		copy(a[i*(hL+1):], act)
		a[i*(hL+1)+hL] = n.base(act)
	}
	if err := allReduce(a); err != nil {
		return err
	}

	// 3. This process's outputs: dL/do, and by user dL/da, Σ dL/do and
	// the loss.
	c := resized(ow.c, len(batch)*(hL+2))
	ow.c = c
	clear(c)
	if w.rk == nil {
		w.ownedErrors(batch, lo, hi, weight)
	} else if err := w.ownedSoftmax(ctx, batch, lo, hi, weight, neg, allReduce); err != nil {
		return err
	}
	if err := allReduce(c); err != nil {
		return err
	}

	// 4. The dense layers backward, for this worker's users: the dense
	// gradient, then each user's dL/dz of the first hidden layer.
	nd := len(g.dense)
	d := resized(ow.d, nd+len(batch)*h1)
	ow.d = d
	clear(d)
	for k, u := range mine {
		i, t := int(ow.at[u]), ow.traces[k]
		ci := c[i*(hL+2) : (i+1)*(hL+2)]
		copy(t.d[len(t.d)-1], ci[:hL])
		n.backwardDense(t, g, ci[hL])
		copy(d[nd+i*h1:], t.d[0])
		w.loss += ci[hL+1]
	}
	copy(d, g.dense)
	if err := allReduce(d); err != nil {
		return err
	}
	copy(g.dense, d[:nd])
	n.addPenalty(g.dense, w.cfg.L2)
	stepping := time.Now()

	// 5. This worker's part of the process's rows the batch used: their
	// gradients summed over the batch's users in order, then the step.
	mineItem := func(j int32) bool { return int(j)/o.processes%locals == local }
	for i, u := range batch {
		di, ai := d[nd+i*h1:nd+(i+1)*h1], a[i*(hL+1):i*(hL+1)+hL]
		for r := o.ptr[u]; r < o.ptr[u+1]; r++ {
			j := o.item[r]
			if !mineItem(j) || w.rk != nil && o.pos[r] < 0 {
				continue
			}
			ge, gd := g.row(j)
			if x := o.in[r]; x != 0 {
				floats.AddScaled(ge, x, di)
			}
			if dy := o.dy[r]; dy != 0 {
				floats.AddScaled(gd[:hL], dy, ai)
				gd[hL] += dy
			}
		}
	}
	for m, s := range ow.negs {
		j := neg.items[s]
		if !mineItem(j) {
			continue
		}
		_, gd := g.row(j)
		for i := range batch {
			if dz := o.logits[i*len(ow.negs)+m]; dz != 0 {
				floats.AddScaled(gd[:hL], dz, a[i*(hL+1):i*(hL+1)+hL])
				gd[hL] += dz
			}
		}
	}
	for s, j := range g.items {
		ge, gd := g.enc[s*g.wEnc:(s+1)*g.wEnc], g.dec[s*g.wDec:(s+1)*g.wDec]
		w.addRowPenaltyTo(j, ge, gd)
		w.stepRowBy(j, ge, gd)
	}
	w.opt.update(n.dense, w.denseMV, g.dense)
	done := time.Now()
	var err error
	if locals > 1 { // the next batch reads rows this process's workers step
		err = w.coll.Barrier(ctx, w.rank)
	}
	w.spent.Gradient += stepping.Sub(started) - reducing
	w.spent.Reduce += reducing
	w.spent.Step += done.Sub(stepping)
	w.spent.Barrier += time.Since(done)
	return err
}

// ownedInputs sets the inputs of user u's ratings of this process's items
// for the batch: the ratings, or for the ranking objectives the
// interactions' inputs after dropout, drawn as rankInputs draws them
// (which needs the user's every interaction: ownedRows.pos places them).
func (w *worker) ownedInputs(u int) {
	o := w.owned
	if w.rk == nil {
		copy(o.in[o.ptr[u]:o.ptr[u+1]], o.x[o.ptr[u]:o.ptr[u+1]])
		return
	}
	w.ow.mask = resized(w.ow.mask, int(o.interactions[u]))
	w.dropout(u, w.ow.mask)
	for r := o.ptr[u]; r < o.ptr[u+1]; r++ {
		o.in[r] = 0
		if o.pos[r] >= 0 {
			o.in[r] = w.ow.mask[o.pos[r]]
		}
	}
}

// ownedErrors is step 3 of ownedRows for the rating objective, for the
// users of batch[lo:hi].
func (w *worker) ownedErrors(batch []int, lo, hi int, weight float64) {
	o, n, a, c := w.owned, w.net, w.ow.a, w.ow.c
	hL := n.sizes[len(n.sizes)-1]
	for i := lo; i < hi; i++ {
		ai, base, ci := a[i*(hL+1):i*(hL+1)+hL], a[i*(hL+1)+hL], c[i*(hL+2):(i+1)*(hL+2)]
		var total, sse float64
		for r := o.ptr[batch[i]]; r < o.ptr[batch[i]+1]; r++ {
			j := o.item[r]
			out := n.output(j, ai, base)
			e := n.out.Apply(out) - o.x[r]
			sse += e * e
			d := 2 * weight * e * n.out.Derivative(out)
			o.dy[r] = d
			if d != 0 {
				floats.AddScaled(ci[:hL], d, n.decRow(j)[:hL])
				total += d
			}
		}
		ci[hL], ci[hL+1] = total, sse
	}
}

// ownedSoftmax is step 3 of ownedRows for the ranking objectives, for the
// users of batch[lo:hi], as net.multinomial computes it in one process:
// each process computes its interactions' and negatives' logits, and its
// part of each user's normaliser, its greatest logit m and Σ e^(z−m);
// an all-reduce hands every process every process's parts, which each
// combines in process order; then each computes its outputs' dL/dz.
func (w *worker) ownedSoftmax(ctx context.Context, batch []int, lo, hi int, weight float64, neg *negatives, allReduce func([]float64) error) error {
	o, ow, n, a, c := w.owned, w.ow, w.net, w.ow.a, w.ow.c
	hL, P, K := n.sizes[len(n.sizes)-1], o.processes, len(ow.negs)
	norm := resized(ow.norm, len(batch)*P*2)
	ow.norm = norm
	clear(norm)
	for i := lo; i < hi; i++ {
		u := batch[i]
		ai, base := a[i*(hL+1):i*(hL+1)+hL], a[i*(hL+1)+hL]
		top := math.Inf(-1)
		zs := o.logits[i*K : (i+1)*K]
		for m, s := range ow.negs {
			row := n.decRow(neg.items[s])
			zs[m] = floats.Dot(row[:hL], ai) + row[hL] + base + neg.logw[s]
		}
		for r := o.ptr[u]; r < o.ptr[u+1]; r++ {
			if o.pos[r] < 0 {
				continue
			}
			if s, ok := neg.find(o.item[r]); ok { // an interaction counts once
				m, _ := slices.BinarySearch(ow.negs, int32(s))
				zs[m] = math.Inf(-1)
			}
			o.dy[r] = n.output(o.item[r], ai, base)
			top = max(top, o.dy[r])
		}
		if K > 0 {
			top = max(top, floats.Max(zs))
		}
		var sum float64
		for r := o.ptr[u]; r < o.ptr[u+1]; r++ {
			if o.pos[r] >= 0 {
				sum += math.Exp(o.dy[r] - top)
			}
		}
		for _, z := range zs {
			sum += math.Exp(z - top)
		}
		if sum > 0 {
			norm[(i*P+o.process)*2], norm[(i*P+o.process)*2+1] = top, sum
		}
	}
	if err := allReduce(norm); err != nil {
		return err
	}
	for i := lo; i < hi; i++ {
		u := batch[i]
		top := math.Inf(-1)
		for q := range P {
			if norm[(i*P+q)*2+1] > 0 {
				top = max(top, norm[(i*P+q)*2])
			}
		}
		var sum float64
		for q := range P {
			if part := norm[(i*P+q)*2:]; part[1] > 0 {
				sum += part[1] * math.Exp(part[0]-top)
			}
		}
		logZ, k := top+math.Log(sum), float64(o.interactions[u])
		ci := c[i*(hL+2) : (i+1)*(hL+2)]
		var total, loss float64
		for r := o.ptr[u]; r < o.ptr[u+1]; r++ {
			if o.pos[r] < 0 {
				continue
			}
			z := o.dy[r]
			loss += logZ - z
			d := weight * (k*math.Exp(z-logZ) - 1)
			o.dy[r] = d
			floats.AddScaled(ci[:hL], d, n.decRow(o.item[r])[:hL])
			total += d
		}
		zs := o.logits[i*K : (i+1)*K]
		for m, z := range zs {
			d := weight * k * math.Exp(z-logZ)
			zs[m] = d
			if d != 0 {
				floats.AddScaled(ci[:hL], d, n.decRow(neg.items[ow.negs[m]])[:hL])
				total += d
			}
		}
		ci[hL], ci[hL+1] = total, loss
	}
	return nil
}

// ownedCount is the number of items below items that process of
// processes owns.
func ownedCount(items, processes, process int) int {
	return max(0, (items-process+processes-1)/processes)
}

// ownedGatherRows is the number of its rows each process hands the others
// in one round of gatherOwned: a few tens of megabytes a round for the
// default layers, where all of them at once could be hundreds. A variable
// so that tests can make rounds small.
var ownedGatherRows = 1 << 13

// gatherOwned hands every process every process's rows, after an epoch's
// batches, in rounds of ownedGatherRows rows per process: each worker sends
// its part of its process's rows, and copies its part of each other
// process's into the tables.
func (w *worker) gatherOwned(ctx context.Context) error {
	o, ow, n := w.owned, w.ow, w.net
	P, items := o.processes, w.train.Items
	local, locals := w.rank-w.lead, len(w.workers)
	width := w.g.wEnc + w.g.wDec
	counts, at := make([]int, P), make([]int, P+1)
	// Process q's k-th row is item q + k·P's; a round takes k in [from, from+ownedGatherRows).
	for from := 0; from < ownedCount(items, P, 0); from += ownedGatherRows {
		for q := range P {
			counts[q] = max(0, min(ownedGatherRows, ownedCount(items, P, q)-from)) * width
			at[q+1] = at[q] + counts[q]
		}
		buf := resized(ow.gather, at[P])
		ow.gather = buf
		clear(buf)
		rows := func(q int, f func(j int32, row []float64)) {
			for k := range counts[q] / width {
				if (from+k)%locals == local {
					f(int32(q+(from+k)*P), buf[at[q]+k*width:at[q]+(k+1)*width])
				}
			}
		}
		rows(o.process, func(j int32, row []float64) {
			copy(row, n.encRow(j))
			copy(row[w.g.wEnc:], n.decRow(j))
		})
		if err := w.coll.(gatherer).AllGather(ctx, w.rank, buf, counts); err != nil {
			return err
		}
		for q := range P {
			if q != o.process {
				rows(q, func(j int32, row []float64) {
					copy(n.encRow(j), row[:w.g.wEnc])
					copy(n.decRow(j), row[w.g.wEnc:])
				})
			}
		}
	}
	return w.coll.Barrier(ctx, w.rank) // every row is in before evaluation reads them
}
