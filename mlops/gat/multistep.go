package gat

import (
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// multiStep holds a worker's buffers for the recursive validation: a copy
// of the matrix whose rows after an origin are overwritten with the
// network's forecasts and restored afterwards, and a sampler of it that
// neither caches graphs nor reads the anchor's forecasts computed ahead
// (both depend on the rows, which the forecasts replace).
type multiStep struct {
	buf []float64
	s   sampler
}

// multiSSE is the summed squared error over every entity and steps
// 1..Horizon of the network's recursive forecasts from origins, each step
// fed back as the next one's input, as Model.Forecast does. Step 1 is
// the one-step prediction evaluate kept in cur, when it keeps them: every
// worker has written its rows of it once the one-step sums are reduced.
func (w *worker) multiSSE(origins []int) float64 {
	h, n := w.cfg.horizon(), w.m.N
	if w.ms == nil {
		w.ms = &multiStep{buf: slices.Clone(w.m.Values), s: newSampler(w.m, w.cfg, w.anchorFit, nil, 0)}
	}
	ms := w.ms
	var sum float64
	for _, o := range origins {
		for k := range h {
			t := o + k
			row := ms.buf[t*n : (t+1)*n]
			if k == 0 && w.cur != nil {
				copy(row, w.cur.row(t))
			} else {
				ms.s.m = series.Matrix{T: t, N: n, Values: ms.buf[:t*n]}
				pred, _ := ms.s.predict(w.net, t)
				copy(row, pred.RawMatrix().Data)
			}
			for i, q := range row {
				d := q - w.m.At(t, i)
				sum += d * d
			}
		}
		copy(ms.buf[o*n:(o+h)*n], w.m.Values[o*n:(o+h)*n])
	}
	return sum
}

// validationMSE is f's validation score at horizon h: the one-step MSE
// over val at h = 1 (baseline.MSE), else the mean over steps 1..h of its
// MSE from the validation origins (see valOrigins), as training scores
// the network; NaN without validation, +Inf when no origin fits.
func validationMSE(f baseline.Forecaster, m series.Matrix, val []int, h int) float64 {
	if h <= 1 {
		return baseline.MSE(f, m, val, nil)
	}
	if len(val) == 0 {
		return math.NaN()
	}
	origins := valOrigins(val, h)
	if len(origins) == 0 {
		return math.Inf(1)
	}
	scale := make([]float64, m.N)
	for i := range scale {
		scale[i] = math.NaN()
	}
	var sum float64
	for _, st := range horizons(f, m, origins, h, scale, nil) {
		sum += st.MSE
	}
	return sum / float64(h)
}
