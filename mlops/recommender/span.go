package recommender

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// spanRows is how the tables meet when the workers of a run of a ranking
// objective are spread over processes (a parallel.Ranks collective; the
// rating objective's meet as ownedRows): each process holds a copy
// of the tables, and each row has an owner, the process of its item's
// index mod the processes, which alone keeps the row's optimiser moments
// and steps it. Per batch, three exchanges cross the processes. The dense
// all-reduce carries, after each worker's dense gradient, a mask of the
// items its share used (one value per item: 1 where used), which adds
// values to an exchange whose cost is mostly its latency. Then the
// gradients of the rows any share used, grouped by owner and in item
// order within, each summed first over the process's workers in rank
// order (by the local worker whose part of the rows it is in, zeros in
// the others' buffers, which change no bit), are reduce-scattered: each
// process sends each owner its part, and each owner sums what it receives
// of its rows in rank order, steps them, its workers each their part; an
// all-gather then hands every process the stepped rows' new weights. Each
// row's sum is taken once, by its owner, in rank order, so one worker per
// process reproduces the in-process sums exactly, and every process ends
// the batch with the same tables. The reduce-scatter and the all-gather
// together move about what one all-reduce of the rows moves (where the
// Comm is no parallel.Scatterer, they are an all-reduce and broadcasts).
type spanRows struct {
	processes, process int // how many processes, and which this one is
	users              int
	dense, rows        [][]float64 // by local worker: its buffers
	items              [][]int32   // by local worker: the batch's used items, by owner and then in order
	counts             [][]int     // by local worker and then process: the values of the process's rows in rows
	own                [][2]int    // by local worker: this process's rows, items[own[0]:own[1]]
}

func newSpanRows(coll parallel.Collective, users, locals int) *spanRows {
	first, n := parallel.Locals(coll)
	s := &spanRows{processes: coll.Size() / n, process: first / n, users: users,
		dense: make([][]float64, locals), rows: make([][]float64, locals), items: make([][]int32, locals),
		counts: make([][]int, locals), own: make([][2]int, locals)}
	for i := range s.counts {
		s.counts[i] = make([]int, s.processes)
	}
	return s
}

// scatterer is what spanRows needs of a parallel.Ranks beyond a
// Collective.
type scatterer interface {
	ReduceScatterSum(ctx context.Context, rank int, buf []float64, counts []int) error
	AllGather(ctx context.Context, rank int, buf []float64, counts []int) error
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

// spanDense is this worker's buffer for the dense all-reduce across
// processes: its dense gradient, then the mask of the items its share
// used (see spanRows).
func (w *worker) spanDense() []float64 {
	s, i := w.span, w.rank-w.lead
	n := len(w.g.dense)
	buf := slices.Grow(s.dense[i][:0], n+w.train.Items)[:n+w.train.Items]
	copy(buf, w.g.dense)
	mask := buf[n:]
	clear(mask)
	for _, j := range w.g.items {
		mask[j] = 1
	}
	s.dense[i] = buf
	return buf
}

// spanUsed takes from buf, spanDense's buffer summed over every worker,
// the dense gradient into w.g.dense and the items any share used, by
// owner.
func (w *worker) spanUsed(buf []float64) {
	s, i := w.span, w.rank-w.lead
	n := copy(w.g.dense, buf)
	mask, width := buf[n:], w.g.wEnc+w.g.wDec
	items := s.items[i][:0]
	for p := range s.processes {
		from := len(items)
		for j := p; j < len(mask); j += s.processes {
			if mask[j] != 0 {
				items = append(items, int32(j))
			}
		}
		s.counts[i][p] = (len(items) - from) * width
		if p == s.process {
			s.own[i] = [2]int{from, len(items)}
		}
	}
	s.items[i] = items
}

// stepSpanTables steps this worker's part of the rows the batch used in
// any process that this process owns, by their gradients summed over
// every worker, and takes the other owners' stepped rows (see spanRows).
func (w *worker) stepSpanTables(ctx context.Context) error {
	s, i, nw := w.span, w.rank-w.lead, len(w.workers)
	items, counts, own := s.items[i], s.counts[i], s.own[i]
	coll, ok := w.coll.(scatterer)
	if !ok {
		return errors.New("recommender: workers spread over processes need a collective that reduce-scatters and all-gathers")
	}
	width := w.g.wEnc + w.g.wDec
	rows := slices.Grow(s.rows[i][:0], len(items)*width)[:len(items)*width]
	// Every local worker's gradient is complete (the dense all-reduce has
	// passed) and stays so until the step's barrier.
	lo, hi := i*len(items)/nw, (i+1)*len(items)/nw
	clear(rows[:lo*width])
	clear(rows[hi*width:])
	for k := lo; k < hi; k++ {
		w.localRowGradient(items[k], rows[k*width:(k+1)*width])
	}
	s.rows[i] = rows
	reducing := time.Now()
	if err := coll.ReduceScatterSum(ctx, w.rank, rows, counts); err != nil {
		return err
	}
	w.rowsReduced = time.Since(reducing)
	// This worker's part of the process's rows: it steps them and leaves
	// their new weights in rows, zeros in the rest of the process's part.
	mlo, mhi := own[0]+i*(own[1]-own[0])/nw, own[0]+(i+1)*(own[1]-own[0])/nw
	clear(rows[own[0]*width : mlo*width])
	clear(rows[mhi*width : own[1]*width])
	for k := mlo; k < mhi; k++ {
		j, ge, gd := items[k], rows[k*width:k*width+w.g.wEnc], rows[k*width+w.g.wEnc:(k+1)*width]
		w.addRowPenaltyTo(j, ge, gd)
		w.stepRowBy(j, ge, gd)
		copy(rows[k*width:], w.net.encRow(j))
		copy(rows[k*width+w.g.wEnc:], w.net.decRow(j))
	}
	reducing = time.Now()
	if err := coll.AllGather(ctx, w.rank, rows, counts); err != nil {
		return err
	}
	w.rowsReduced += time.Since(reducing)
	for k := lo; k < hi; k++ { // the other owners' rows, this worker's part of them
		if k >= own[0] && k < own[1] {
			continue
		}
		j := items[k]
		copy(w.net.encRow(j), rows[k*width:k*width+w.g.wEnc])
		copy(w.net.decRow(j), rows[k*width+w.g.wEnc:(k+1)*width])
	}
	return nil
}

// localRowGradient sets row to item j's gradient rows, encoder's then
// decoder's, summed over this process's workers in rank order: zeros
// where none used it.
func (w *worker) localRowGradient(j int32, row []float64) {
	enc, dec, first := row[:w.g.wEnc], row[w.g.wEnc:], true
	for _, other := range w.workers {
		slot, ok := other.g.find(j)
		if !ok {
			continue
		}
		ge, gd := other.g.enc[slot*w.g.wEnc:(slot+1)*w.g.wEnc], other.g.dec[slot*w.g.wDec:(slot+1)*w.g.wDec]
		if first {
			copy(enc, ge)
			copy(dec, gd)
			first = false
		} else {
			addTo(enc, ge)
			addTo(dec, gd)
		}
	}
	if first {
		clear(row)
	}
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
