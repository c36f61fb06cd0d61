package recommender

import (
	"context"
	"math"
	"time"
)

// userClaim is the number of users a worker claims at a time to
// evaluate: a few milliseconds of work.
const userClaim = 64

// evaluate measures the model after an epoch. The workers claim users in
// runs of userClaim as they go and score them into the run's per-user
// results, then rank their parts of the ranked users (each ranking is a
// matrix product that itself runs on every processor); rank 0 sums the
// results in user order, so the metrics do not depend on the number of
// workers beyond the weights themselves. Only rank 0's Epoch is filled in.
func (w *worker) evaluate(ctx context.Context, epoch int) (Epoch, error) {
	ulo, uhi := w.userBlock()
	if w.own != nil {
		ulo, uhi = 0, len(w.own)
	}
	for w.rk == nil {
		lo, hi := w.evaluated.claim(userClaim, uhi-ulo)
		if lo == hi {
			break
		}
		lo, hi = lo+ulo, hi+ulo
		for k := lo; k < hi; k++ {
			u := k
			if w.own != nil {
				u = w.own[k]
			}
			a, base := w.ev.code(u)
			items, vals := w.train.Row(u)
			w.trainSSE[u] = w.ev.sse(items, vals, a, base)
			items, vals = w.test.Row(u)
			w.testSSE[u] = w.ev.sse(items, vals, a, base)
		}
	}
	if w.shard != nil && !w.whole {
		w.rankOwn()
	} else {
		size := w.coll.Size()
		rlo, rhi := w.rank*len(w.ranked)/size, (w.rank+1)*len(w.ranked)/size
		w.ev.rank(w.ranked[rlo:rhi], w.recall[rlo:rhi], w.ndcg[rlo:rhi])
	}
	if !w.whole {
		return w.spanEpoch(ctx, epoch)
	}
	if err := w.coll.Barrier(ctx, w.rank); err != nil || w.rank != 0 {
		return Epoch{}, err
	}
	e := Epoch{Epoch: epoch, TrainRMSE: math.NaN(), TestRMSE: math.NaN(),
		RecallAt10: mean(w.recall), NDCGAt10: mean(w.ndcg), Elapsed: time.Since(w.start)}
	if w.rk == nil {
		trainN, testN := w.ratingCounts()
		e.TrainRMSE, e.TestRMSE = math.Sqrt(sum(w.trainSSE)/float64(trainN)), math.Sqrt(sum(w.testSSE)/float64(testN))
	}
	return e, nil
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
