package gat

import (
	"context"
	"math"

	"github.com/mallard/mallard/mlops/series"
)

// The values of Config.KeepNetwork: which trained epoch replaces the
// network training starts from. "" is KeepDefault.
const (
	// KeepBest keeps the epoch with the lowest validation MSE.
	KeepBest = "best"
	// KeepSignificant keeps the epoch with the lowest validation MSE among
	// those that a one-sided sign test finds better than the first network
	// (see signRejects); none passing, it keeps the first network.
	KeepSignificant = "significant"
	// KeepShrunk keeps the epoch with the lowest validation MSE, its
	// correction to the anchor shrunk by a weight fitted on validation
	// (see Shrink).
	KeepShrunk = "shrunk"
	// KeepOneSE keeps the epoch with the lowest validation MSE among those
	// whose mean validation loss is below the first network's by more
	// than one standard error of the difference (see oneSEKeeps); none
	// passing, it keeps the first network.
	KeepOneSE = "one_se"
	// KeepOneSEHorizons is KeepOneSE whose test may also pass on the
	// recursive forecasts over steps 1..season from the validation origins
	// (see gateOrigins): either test passing, the epoch may be kept.
	KeepOneSEHorizons = "one_se_horizons"
	// KeepDefault is the rule of "" (see docs/forecasting.md, "Keeping the
	// network by the one-standard-error rule").
	KeepDefault = KeepOneSEHorizons
)

// keepRule is c.KeepNetwork, KeepDefault for "".
func (c Config) keepRule() string {
	if c.KeepNetwork == "" {
		return KeepDefault
	}
	return c.KeepNetwork
}

// KeepRules are the accepted values of Config.KeepNetwork.
func KeepRules() []string {
	return []string{KeepBest, KeepSignificant, KeepShrunk, KeepOneSE, KeepOneSEHorizons}
}

// signLevel is the level at which KeepSignificant's sign test rejects.
const signLevel = 0.05

// beatsFirst reports whether the network as it is now may replace the
// first one under cfg.KeepNetwork: always but where testsFirst. Under
// KeepSignificant its squared errors on the validation cells (see
// valCells) must beat the first network's, kept in w.first0, on more
// cells than a fair coin would at signLevel; under KeepOneSE see
// oneSEBeats. Every worker must call it
// at the same epochs: it reduces the counts across them.
func (w *worker) beatsFirst(ctx context.Context) (bool, error) {
	if !w.testsFirst() {
		return true, nil
	}
	w.cells = w.valCells(w.cells)
	if w.cfg.keepRule() != KeepSignificant {
		return w.oneSEBeats(ctx)
	}
	counts := []float64{0, 0}
	for k, c := range w.cells {
		switch {
		case c < w.first0[k]:
			counts[0]++
		case c > w.first0[k]:
			counts[1]++
		}
	}
	if err := w.coll.AllReduceSum(ctx, w.rank, counts); err != nil {
		return false, err
	}
	return signRejects(int(counts[0]), int(counts[1]), signLevel), nil
}

// testsFirst reports whether cfg.KeepNetwork tests an epoch against the
// first network before keeping it: KeepSignificant, KeepOneSE and
// KeepOneSEHorizons do, with validation.
func (w *worker) testsFirst() bool {
	k := w.cfg.keepRule()
	return (k == KeepSignificant || k == KeepOneSE || k == KeepOneSEHorizons) && len(w.val) > 0
}

// keepFirst records the first network's validation cells for beatsFirst;
// it does nothing unless testsFirst.
func (w *worker) keepFirst() {
	if w.testsFirst() {
		w.first0 = w.valCells(nil)
		w.gateFirst = w.gateCells(nil)
	}
}

// valCells returns the network's squared errors on this worker's part of
// the validation cells, in the same order at every epoch: with
// validation origins, one cell per origin and entity, its squared errors
// summed over steps 1..Horizon of the forecasts validation scores (see
// evaluate); without, one cell per one-step validation sample and entity.
func (w *worker) valCells(dst []float64) []float64 {
	dst = dst[:0]
	if len(w.origins) == 0 {
		for _, t := range w.shareOf(1) {
			pred, target := w.s.predict(w.net, t)
			for i, y := range target {
				d := pred.At(i, 0) - y
				dst = append(dst, d*d)
			}
		}
		return dst
	}
	for _, o := range w.part(w.origins) {
		from := len(dst)
		for range w.m.N {
			dst = append(dst, 0)
		}
		w.originCells(o, w.cfg.horizon(), dst[from:])
	}
	return dst
}

// originCells adds to cell[i] entity i's squared errors over steps 1..h
// of the network's forecasts from origin o: recursive, as multiSSE
// computes them, or the steps of a multi-output network (whose h must be
// the configured horizon).
func (w *worker) originCells(o, h int, cell []float64) {
	n := w.m.N
	if w.cfg.steps() > 1 {
		pred := w.s.steps(w.net, o)
		_, cols := pred.Dims()
		for k := range cols {
			for i := range n {
				d := pred.At(i, k) - w.m.At(o+k, i)
				cell[i] += d * d
			}
		}
		return
	}
	if w.ms == nil {
		w.ms = &multiStep{buf: append([]float64(nil), w.m.Values...), s: newSampler(w.m, w.cfg, w.anchorFit, nil, 0)}
	}
	ms := w.ms
	for k := range h {
		t := o + k
		row := ms.buf[t*n : (t+1)*n]
		ms.s.m = series.Matrix{T: t, N: n, Values: ms.buf[:t*n]}
		pred, _ := ms.s.predict(w.net, t)
		copy(row, pred.RawMatrix().Data)
		for i, q := range row {
			d := q - w.m.At(t, i)
			cell[i] += d * d
		}
	}
	copy(ms.buf[o*n:(o+h)*n], w.m.Values[o*n:(o+h)*n])
}

// signRejects reports whether the one-sided sign test (Diebold and
// Mariano 1995, section 3.1) rejects at level that a cell's loss
// differential is as likely positive as negative, in favour of wins: the
// chance of at least wins heads in wins+losses tosses of a fair coin is
// at most level. Ties are left out; no cells never reject.
func signRejects(wins, losses int, level float64) bool {
	n := wins + losses
	if n == 0 {
		return false
	}
	lg := func(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	var p float64
	for k := wins; k <= n; k++ {
		p += math.Exp(lg(n) - lg(k) - lg(n-k) - float64(n)*math.Ln2)
	}
	return p <= level
}
