package gat

import (
	"context"
	"math"
	"slices"
)

// oneSEBeats reports whether the network beats the first one under
// KeepOneSE: the loss differential of every validation row (origin, at a
// horizon above 1) of w.cells against w.first0, summed over its
// entities, is gathered across the workers (see rowDiffs) and tested by
// oneSEKeeps with lags h − 1. Under KeepOneSEHorizons, failing that, the
// same test on the gate origins' cells (see gateOrigins) may pass. Every
// worker must call it at the same epochs.
func (w *worker) oneSEBeats(ctx context.Context) (bool, error) {
	full, mine := w.val, w.shareOf(1)
	if len(w.origins) > 0 {
		full, mine = w.origins, w.part(w.origins)
	}
	d, err := w.rowDiffs(ctx, w.cells, w.first0, full, mine)
	if err != nil {
		return false, err
	}
	if pass := oneSEKeeps(d, w.cfg.horizon()-1); pass || len(w.gate) == 0 {
		return pass, nil
	}
	w.gateNow = w.gateCells(w.gateNow)
	if d, err = w.rowDiffs(ctx, w.gateNow, w.gateFirst, w.gate, w.part(w.gate)); err != nil {
		return false, err
	}
	return oneSEKeeps(d, w.gateH-1), nil
}

// gateOrigins are the origins and the steps of KeepOneSEHorizons' second
// test: the validation origins of steps 1..s, s the season capped at the
// validation rows less one; none (its test is KeepOneSE's) unless s is
// above the configured horizon, the network recursive and every row in
// the process (shard nil).
func gateOrigins(cfg Config, val []int, shard *sharding) ([]int, int) {
	s := min(cfg.Season, len(val)-1)
	if cfg.keepRule() != KeepOneSEHorizons || s <= cfg.horizon() || cfg.steps() > 1 || shard != nil {
		return nil, 0
	}
	return valOrigins(val, s), s
}

// gateCells returns the network's squared errors on this worker's part of
// the gate origins, one cell per origin and entity, summed over steps
// 1..gateH; nil without gate origins.
func (w *worker) gateCells(dst []float64) []float64 {
	if len(w.gate) == 0 {
		return nil
	}
	dst = dst[:0]
	for _, o := range w.part(w.gate) {
		from := len(dst)
		for range w.m.N {
			dst = append(dst, 0)
		}
		w.originCells(o, w.gateH, dst[from:])
	}
	return dst
}

// rowDiffs is the loss differential of each row of full (validation
// samples or origins, sorted): cells minus first, which hold the cells
// of the worker's rows mine, summed over each row's entities; each
// worker adds its own rows and the sums are reduced across the workers.
func (w *worker) rowDiffs(ctx context.Context, cells, first []float64, full, mine []int) ([]float64, error) {
	d, n := make([]float64, len(full)), w.m.N
	for k, t := range mine {
		pos, _ := slices.BinarySearch(full, t)
		for i := range n {
			d[pos] += cells[k*n+i] - first[k*n+i]
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
