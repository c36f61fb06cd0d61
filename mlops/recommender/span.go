package recommender

import (
	"context"
	"math"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// spanRows is where this process stands among the processes of a run
// whose workers are spread over them (a parallel.Ranks collective): how
// the tables meet is ownedRows.
type spanRows struct {
	processes, process int // how many processes, and which this one is
	users              int
}

func newSpanRows(coll parallel.Collective, users int) *spanRows {
	first, n := parallel.Locals(coll)
	return &spanRows{processes: coll.Size() / n, process: first / n, users: users}
}

// gatherer is what ownedRows needs of a parallel.Ranks beyond a
// Collective.
type gatherer interface {
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
