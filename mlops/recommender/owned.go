package recommender

import (
	"context"
	"slices"
	"time"

	"gonum.org/v1/gonum/floats"
)

// ownedRows is how the tables meet across processes for the rating
// objective. Each row has an owner, the process of its item's index mod
// the processes, as in spanRows; but here the owner alone ever reads or
// writes the row during an epoch, and what crosses the processes is a few
// vectors per user of the batch instead of the rows the batch used. Per
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
//     last hidden layer, Σ dL/do and the squared errors by user;
//  4. the user's worker runs the dense layers backward, and an all-reduce
//     sums the dense gradient together with each user's dL/dz of the first
//     hidden layer;
//  5. each process sums its used rows' gradients over the batch's users,
//     in batch order, and steps them.
//
// The users' vectors are a few hundred values each, where the rows of a
// batch, over all items nearly, were hundreds of thousands (2.9 MB a
// batch each way for 1,200 items and the default layers): the exchange
// becomes four all-reduces of latency, and each process computes only
// its items' share of the tables' arithmetic. At the end of each epoch an
// all-gather hands every process every row, for evaluation and the
// model. Every all-reduce sums in rank order, so every process gets the
// same bits; one process's sums are grouped otherwise (a user's inputs by
// process first), so the curves equal one process's to rounding.
type ownedRows struct {
	processes, process int
	// By user, as in Ratings: its training ratings of this process's
	// items, item[ptr[u]:ptr[u+1]] with inputs x (in [0, 1]).
	ptr  []int
	item []int32
	x    []float64
	// dy is, by rating, dL/do at the output of the item for its user in
	// the current batch (written in step 3 by the worker of the user's
	// part of the batch, read in step 5 by the worker of the item).
	dy []float64
}

// ownedWork is one worker's scratch space for ownedRows.
type ownedWork struct {
	z, a, c, d []float64 // the four all-reduces' buffers
	traces     []*trace  // the passes of this worker's users of the batch
	at         []int32   // by user: its index in the batch (valid for the batch's users)
	gather     []float64 // the epoch's all-gather of rows
}

// ownedRatingsChunk is the number of ratings each process contributes to
// one all-gather when processes that hold their own users only exchange
// their items' ratings (see exchangeOwned): a few megabytes a round. A
// variable so that tests can make rounds small.
var ownedRatingsChunk = 1 << 16

// ownedOf returns the ownedRows of process of processes from train, which
// holds every user's ratings.
func ownedOf(train Ratings, s scale, processes, process int) *ownedRows {
	o := &ownedRows{processes: processes, process: process, ptr: make([]int, train.Users+1)}
	for u := range train.Users {
		items, vals := train.Row(u)
		for i, j := range items {
			if int(j)%processes == process {
				o.item, o.x = append(o.item, j), append(o.x, s.in(float64(vals[i])))
			}
		}
		o.ptr[u+1] = len(o.item)
	}
	o.dy = make([]float64, len(o.item))
	return o
}

// exchangeOwned builds the run's ownedRows where each process holds only
// its own users' ratings (TrainShard): in rounds, every process hands
// every other a chunk of its ratings as (user, item, rating) triples, and
// keeps those of its items. Every worker calls it; the lowest of each
// process assembles.
func (w *worker) exchangeOwned(ctx context.Context) error {
	s, P, p := w.shard, w.span.processes, w.span.process
	held := make([]int, P) // by process: the ratings it holds
	for u, n := range s.Rated {
		held[s.Owner(u)] += n
	}
	var users []int32 // by received rating: its user
	var items []int32
	var xs []float64
	var buf []float64
	counts := make([]int, P)
	cu, ci := 0, 0 // the next of this process's ratings to send: user cu's ci-th
	for from := 0; from < slices.Max(held); from += ownedRatingsChunk {
		total, at := 0, 0
		for q := range P {
			counts[q] = 3 * max(0, min(ownedRatingsChunk, held[q]-from))
			if q < p {
				at += counts[q]
			}
			total += counts[q]
		}
		buf = resized(buf, total)
		clear(buf)
		if w.rank == w.lead {
			part := buf[at : at+counts[p]]
			for k := 0; k < len(part); k += 3 {
				for ci == w.train.Ptr[cu+1]-w.train.Ptr[cu] {
					cu, ci = cu+1, 0
				}
				its, vals := w.train.Row(cu)
				part[k], part[k+1], part[k+2] = float64(cu), float64(its[ci]), float64(vals[ci])
				ci++
			}
		}
		if err := w.coll.(scatterer).AllGather(ctx, w.rank, buf, counts); err != nil {
			return err
		}
		if w.rank == w.lead {
			for k := 0; k < total; k += 3 {
				if j := int32(buf[k+1]); int(j)%P == p {
					users, items, xs = append(users, int32(buf[k])), append(items, j), append(xs, w.scale.in(buf[k+2]))
				}
			}
		}
	}
	if w.rank == w.lead {
		o := &ownedRows{processes: P, process: p, ptr: make([]int, s.Users+1), item: make([]int32, len(items)), x: make([]float64, len(items))}
		for _, u := range users {
			o.ptr[u+1]++
		}
		for u := range s.Users {
			o.ptr[u+1] += o.ptr[u]
		}
		fill := slices.Clone(o.ptr[:s.Users])
		for k, u := range users { // stable: a user's ratings arrive in its row's order
			o.item[fill[u]], o.x[fill[u]] = items[k], xs[k]
			fill[u]++
		}
		o.dy = make([]float64, len(o.item))
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

	// 1. The first hidden layer's pre-activations, less the bias.
	z := resized(ow.z, len(batch)*h1)
	ow.z = z
	clear(z)
	for i := lo; i < hi; i++ {
		zi := z[i*h1 : (i+1)*h1]
		for r := o.ptr[batch[i]]; r < o.ptr[batch[i]+1]; r++ {
			if x := o.x[r]; x != 0 {
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
	for k, u := range mine {
		i, t := int(ow.at[u]), ow.traces[k]
		copy(t.z[0], n.dense[:h1])
		floats.Add(t.z[0], z[i*h1:(i+1)*h1])
		act := n.forward(t)
		copy(a[i*(hL+1):], act)
		a[i*(hL+1)+hL] = n.base(act)
	}
	if err := allReduce(a); err != nil {
		return err
	}

	// 3. This process's outputs: dL/do, and by user dL/da, Σ dL/do and
	// the squared errors.
	c := resized(ow.c, len(batch)*(hL+2))
	ow.c = c
	clear(c)
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
	for i, u := range batch {
		di, ai := d[nd+i*h1:nd+(i+1)*h1], a[i*(hL+1):i*(hL+1)+hL]
		for r := o.ptr[u]; r < o.ptr[u+1]; r++ {
			j := o.item[r]
			if int(j)/o.processes%locals != local {
				continue
			}
			ge, gd := g.row(j)
			if x := o.x[r]; x != 0 {
				floats.AddScaled(ge, x, di)
			}
			if dy := o.dy[r]; dy != 0 {
				floats.AddScaled(gd[:hL], dy, ai)
				gd[hL] += dy
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

// ownedCount is the number of items below items that process of
// processes owns.
func ownedCount(items, processes, process int) int {
	return max(0, (items-process+processes-1)/processes)
}

// gatherOwned hands every process every process's rows, after an epoch's
// batches: each worker sends its part of its process's rows, and copies
// its part of each other process's into the tables.
func (w *worker) gatherOwned(ctx context.Context) error {
	o, ow, n := w.owned, w.ow, w.net
	P, items := o.processes, w.train.Items
	local, locals := w.rank-w.lead, len(w.workers)
	width := w.g.wEnc + w.g.wDec
	counts, at := make([]int, P), make([]int, P+1)
	for q := range P {
		counts[q] = ownedCount(items, P, q) * width
		at[q+1] = at[q] + counts[q]
	}
	buf := resized(ow.gather, at[P])
	ow.gather = buf
	clear(buf)
	for k, j := 0, o.process; j < items; k, j = k+1, j+P {
		if k%locals == local {
			row := buf[at[o.process]+k*width : at[o.process]+(k+1)*width]
			copy(row, n.encRow(int32(j)))
			copy(row[w.g.wEnc:], n.decRow(int32(j)))
		}
	}
	if err := w.coll.(scatterer).AllGather(ctx, w.rank, buf, counts); err != nil {
		return err
	}
	for q := range P {
		if q == o.process {
			continue
		}
		for k, j := 0, q; j < items; k, j = k+1, j+P {
			if k%locals == local {
				row := buf[at[q]+k*width : at[q]+(k+1)*width]
				copy(n.encRow(int32(j)), row[:w.g.wEnc])
				copy(n.decRow(int32(j)), row[w.g.wEnc:])
			}
		}
	}
	return w.coll.Barrier(ctx, w.rank) // every row is in before evaluation reads them
}
