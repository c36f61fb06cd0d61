package recommender

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// spanRows is how the tables meet when the workers of a run are spread
// over processes (a parallel.Ranks collective): each process holds a copy
// of the tables, and each row has an owner, the process of its item's
// index mod the processes, which alone keeps the row's optimiser moments
// and steps it. Per batch, after the dense all-reduce, a process's workers
// all-reduce a mask of the items their shares used (one value per item),
// then the used rows' gradients in item order (each summed first over the
// process's workers in rank order); the owners step their rows, and a last
// all-reduce hands every process the stepped rows' new weights. In the two
// later all-reduces each value comes from one process and zeros from the
// others, which changes no bit, so one worker per process reproduces the
// in-process sums exactly, and every process ends the batch with the same
// tables. (A reduce-scatter to the owners and an all-gather of the
// stepped rows would move less; the Collective has neither yet.)
type spanRows struct {
	processes, process int // how many processes, and which this one is
	users              int
	mask, rows, next   [][]float64 // by local worker: its buffers
	items              [][]int32   // by local worker: the batch's used items, in order
}

func newSpanRows(coll parallel.Collective, users, locals int) *spanRows {
	first, n := parallel.Locals(coll)
	return &spanRows{processes: coll.Size() / n, process: first / n, users: users,
		mask: make([][]float64, locals), rows: make([][]float64, locals), next: make([][]float64, locals),
		items: make([][]int32, locals)}
}

// userBlock is the users this process evaluates: all of them in one
// process, else a contiguous block of its own.
func (w *worker) userBlock() (lo, hi int) {
	if w.whole {
		return 0, w.train.Users
	}
	s := w.span
	return s.process * s.users / s.processes, (s.process + 1) * s.users / s.processes
}

// stepSpanTables steps this worker's part of the rows the batch used in
// any process, by their gradients summed over every worker (see spanRows).
func (w *worker) stepSpanTables(ctx context.Context) error {
	s, i := w.span, w.rank-w.lead
	mask := s.mask[i]
	if mask == nil {
		mask = make([]float64, w.train.Items)
	}
	clear(mask)
	if i == 0 { // every local worker's gradient is complete: the dense all-reduce has passed
		for _, other := range w.workers {
			for _, j := range other.g.items {
				mask[j] = 1
			}
		}
	}
	s.mask[i] = mask
	if err := w.coll.AllReduceSum(ctx, w.rank, mask); err != nil {
		return err
	}
	items := s.items[i][:0]
	for j, v := range mask {
		if v != 0 {
			items = append(items, int32(j))
		}
	}
	s.items[i] = items
	width := w.g.wEnc + w.g.wDec
	rows := slices.Grow(s.rows[i][:0], len(items)*width)[:len(items)*width]
	clear(rows)
	if i == 0 {
		for k, j := range items {
			row := rows[k*width : (k+1)*width]
			for _, other := range w.workers { // in rank order
				if slot, ok := other.g.find(j); ok {
					addTo(row[:w.g.wEnc], other.g.enc[slot*w.g.wEnc:(slot+1)*w.g.wEnc])
					addTo(row[w.g.wEnc:], other.g.dec[slot*w.g.wDec:(slot+1)*w.g.wDec])
				}
			}
		}
	}
	s.rows[i] = rows
	if err := w.coll.AllReduceSum(ctx, w.rank, rows); err != nil {
		return err
	}
	next := slices.Grow(s.next[i][:0], len(rows))[:len(rows)]
	clear(next)
	s.next[i] = next
	lo, hi := i*len(items)/len(w.workers), (i+1)*len(items)/len(w.workers)
	for k := lo; k < hi; k++ {
		j := items[k]
		if int(j)%s.processes != s.process {
			continue
		}
		copy(w.ge, rows[k*width:k*width+w.g.wEnc])
		copy(w.gd, rows[k*width+w.g.wEnc:(k+1)*width])
		w.addRowPenalty(j)
		w.stepRow(j)
		copy(next[k*width:], w.net.encRow(j))
		copy(next[k*width+w.g.wEnc:], w.net.decRow(j))
	}
	if err := w.coll.AllReduceSum(ctx, w.rank, next); err != nil {
		return err
	}
	for k := lo; k < hi; k++ {
		j := items[k]
		copy(w.net.encRow(j), next[k*width:k*width+w.g.wEnc])
		copy(w.net.decRow(j), next[k*width+w.g.wEnc:(k+1)*width])
	}
	return nil
}

// addTo adds src to dst elementwise, in order.
func addTo(dst, src []float64) {
	for k, v := range src {
		dst[k] += v
	}
}

// spanEpoch ends evaluate across processes: the per-user errors, the
// ranking metrics and the workers' losses, each written in its process
// and zero in the others, are summed over every worker (which changes no
// bit), and rank 0 measures the epoch from the sums, as evaluate does in
// one process.
func (w *worker) spanEpoch(ctx context.Context, epoch int) (Epoch, error) {
	u, r := w.train.Users, len(w.ranked)
	buf := make([]float64, 2*u+2*r+len(w.losses))
	if err := w.coll.Barrier(ctx, w.rank); err != nil { // every local worker's results are in
		return Epoch{}, err
	}
	if w.rank == w.lead {
		copy(buf, w.trainSSE)
		copy(buf[u:], w.testSSE)
		copy(buf[2*u:], w.recall)
		copy(buf[2*u+r:], w.ndcg)
		copy(buf[2*u+2*r:], w.losses)
	}
	if err := w.coll.AllReduceSum(ctx, w.rank, buf); err != nil || w.rank != 0 {
		return Epoch{}, err
	}
	trainSSE, testSSE, recall, ndcg, losses := buf[:u], buf[u:2*u], buf[2*u:2*u+r], buf[2*u+r:2*u+2*r], buf[2*u+2*r:]
	e := Epoch{Epoch: epoch, TrainRMSE: math.NaN(), TestRMSE: math.NaN(),
		RecallAt10: mean(recall), NDCGAt10: mean(ndcg), Elapsed: time.Since(w.start),
		TrainLoss: sum(losses) / float64(w.lossCount(w.users))}
	if w.rk == nil {
		trainN, testN := w.ratingCounts()
		e.TrainRMSE, e.TestRMSE = math.Sqrt(sum(trainSSE)/float64(trainN)), math.Sqrt(sum(testSSE)/float64(testN))
	}
	return e, nil
}
