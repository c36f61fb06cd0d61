package gat

import (
	"reflect"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops/series"
)

// oneStep returns the model's one-step predictions of the given rows of x
// (row k predicts rows[k]), split over workers goroutines, each with a
// network and a sampler of its own. The anchor's forecasts of the rows are
// computed once beforehand, in one pass over the history where the anchor
// allows it, as training computes them: predicting row t one sample at a
// time would filter the history before t again for each. The predictions
// do not depend on workers. The rows must be valid samples of x. A model
// that training kept the predictions of x for returns those: the same
// network, sampler and anchor gave them.
func (m *Model) oneStep(x series.Matrix, rows []int, workers int) ([][]float64, error) {
	if kept := m.keptOf(x, rows); kept != nil {
		return kept, nil
	}
	out := make([][]float64, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	anchor, err := m.Anchor.forecaster()
	if err != nil {
		return nil, err
	}
	from := slices.Min(rows)
	var pre []float64
	if anchor != nil {
		pre = anchorRows(anchor, x, from)
	}
	workers = max(1, min(workers, len(rows)))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			net, err := m.net()
			if err != nil {
				errs[w] = err
				return
			}
			s := newSampler(x, m.Config, anchor, pre, from)
			for k := w * len(rows) / workers; k < (w+1)*len(rows)/workers; k++ {
				pred, _ := s.predict(net, rows[k])
				out[k] = append([]float64(nil), pred.RawMatrix().Data...)
			}
		})
	}
	wg.Wait()
	if err := firstError(errs); err != nil {
		return nil, err
	}
	return out, nil
}

// firstError is the first error that is not nil, or nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// sse is the summed squared error of predictions pred of the rows of m,
// each value mapped by invert when it is not nil, summed in the order
// baseline.MSE sums: row by row, entity by entity.
func sse(m series.Matrix, rows []int, pred [][]float64, invert Invert) float64 {
	var sum float64
	for k, t := range rows {
		for n, y := range m.Row(t) {
			q := pred[k][n]
			if invert != nil {
				y, q = invert(n, y), invert(n, q)
			}
			sum += (q - y) * (q - y)
		}
	}
	return sum
}

// predictionsBound is the most values a run keeps predictions of: two
// buffers of (rows - Span) x entities values each, the size of the data
// matrix; 2 x 128 MiB at the bound. Past it Evaluate and the report run
// the network over the samples again.
const predictionsBound = 1 << 24

// predictions are one network's one-step predictions of every sample of
// the matrix it was trained on: row t's at (t-from)*n, for entities 0..n-1.
type predictions struct {
	from, n int
	values  []float64
	data    *float64 // the first value of that matrix, which identifies it
	cfg     Config
	graphs  *graphCache // the run's graphs of that matrix, for samplers of it
}

// newPredictions returns a buffer for the predictions of every sample of
// m under cfg, or nil past predictionsBound.
func newPredictions(cfg Config, m series.Matrix) *predictions {
	from := cfg.Span()
	if m.T <= from || (m.T-from)*m.N > predictionsBound {
		return nil
	}
	return &predictions{from: from, n: m.N, values: make([]float64, (m.T-from)*m.N), data: &m.Values[0], cfg: cfg}
}

// row is where the prediction of row t goes.
func (p *predictions) row(t int) []float64 {
	return p.values[(t-p.from)*p.n : (t-p.from+1)*p.n : (t-p.from+1)*p.n]
}

// keptOf returns the kept predictions of rows of x, or nil unless the model
// kept them for x (the same matrix, not a copy) and every row.
func (m *Model) keptOf(x series.Matrix, rows []int) [][]float64 {
	p := m.predicted
	if p == nil || x.N != p.n || x.T != p.from+len(p.values)/max(p.n, 1) || len(x.Values) == 0 || &x.Values[0] != p.data ||
		!reflect.DeepEqual(p.cfg, m.Config) {
		return nil
	}
	out := make([][]float64, len(rows))
	for k, t := range rows {
		if t < p.from || t >= x.T {
			return nil
		}
		out[k] = slices.Clone(p.row(t))
	}
	return out
}
