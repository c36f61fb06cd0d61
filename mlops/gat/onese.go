package gat

import (
	"context"
	"math"
	"slices"
)

// oneSEBeats reports whether the network's validation cells, in w.cells,
// beat the first network's, in w.first0, under KeepOneSE: the loss
// differential of every validation row (origin, at a horizon above 1),
// summed over its entities, is gathered across the workers (see
// rowDiffs) and tested by oneSEKeeps with lags h − 1. Every worker must
// call it at the same epochs.
func (w *worker) oneSEBeats(ctx context.Context) (bool, error) {
	d, err := w.rowDiffs(ctx)
	if err != nil {
		return false, err
	}
	return oneSEKeeps(d, w.cfg.horizon()-1), nil
}

// rowDiffs is the loss differential of each validation row, in the order
// of the run's validation samples (one-step) or origins: w.cells minus
// w.first0, summed over the row's entities, each worker adding its own
// rows and the sums reduced across the workers.
func (w *worker) rowDiffs(ctx context.Context) ([]float64, error) {
	full, mine := w.val, w.shareOf(1)
	if len(w.origins) > 0 {
		full, mine = w.origins, w.part(w.origins)
	}
	d, n := make([]float64, len(full)), w.m.N
	for k, t := range mine {
		pos, _ := slices.BinarySearch(full, t)
		for i := range n {
			d[pos] += w.cells[k*n+i] - w.first0[k*n+i]
		}
	}
	if err := w.coll.AllReduceSum(ctx, w.rank, d); err != nil {
		return nil, err
	}
	return d, nil
}

// oneSEKeeps is the one-standard-error rule (Breiman et al. 1984; Hastie,
// Tibshirani and Friedman 2009, section 7.10) on a loss differential d,
// a model's losses less the simpler model's, one per row: it reports
// whether the mean of d is below zero by more than its standard error,
// the square root of the long-run variance of d over len(d) (Diebold and
// Mariano 1995), whose autocovariances up to lag lags are weighted as
// Newey and West (1987) weigh them. Fewer than 2 rows never keep.
func oneSEKeeps(d []float64, lags int) bool {
	n := len(d)
	if n < 2 {
		return false
	}
	var mean float64
	for _, v := range d {
		mean += v
	}
	mean /= float64(n)
	cov := func(l int) float64 {
		var s float64
		for t := l; t < n; t++ {
			s += (d[t] - mean) * (d[t-l] - mean)
		}
		return s / float64(n-1)
	}
	v := cov(0)
	for l := 1; l <= min(lags, n-1); l++ {
		v += 2 * (1 - float64(l)/float64(lags+1)) * cov(l)
	}
	return mean < 0 && mean < -math.Sqrt(max(v, 0)/float64(n))
}
