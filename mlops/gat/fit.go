package gat

import (
	"sync"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// fitBaseline fits the baseline of kind on the samples of m, as
// baseline.FitForecaster does, on up to workers goroutines. ets, theta and
// arima fit each entity by a search of its own over that entity's column
// alone, one entity after another: the longest fits of the ladder and of
// the anchor's candidates. They are fitted here on blocks of entities at
// once and the blocks joined (baseline.Join), which gives the fit of the
// whole matrix whatever the number of workers, since no entity's fit reads
// another's column. If a block fails, the whole matrix is fitted as one,
// so that the error names the entity and row as that fit does.
func fitBaseline(kind baseline.Kind, m series.Matrix, samples []int, opt baseline.Options, workers int) (baseline.Forecaster, error) {
	blocks := min(workers, m.N)
	if !baseline.Joinable(kind) || blocks < 2 || len(samples) == 0 || series.CheckSamples(m, opt.Window, samples) != nil {
		return baseline.FitForecaster(kind, m, samples, opt)
	}
	rows := 0 // the training rows: those up to the last sample
	for _, t := range samples {
		rows = max(rows, t+1)
	}
	parts := make([]baseline.Forecaster, blocks)
	errs := make([]error, blocks)
	var wg sync.WaitGroup
	for b := range blocks {
		lo, hi := b*m.N/blocks, (b+1)*m.N/blocks
		wg.Go(func() {
			sub := series.Matrix{T: rows, N: hi - lo, Values: make([]float64, rows*(hi-lo))}
			for t := range rows {
				copy(sub.Values[t*sub.N:(t+1)*sub.N], m.Values[t*m.N+lo:t*m.N+hi])
			}
			parts[b], errs[b] = baseline.FitForecaster(kind, sub, samples, opt)
		})
	}
	wg.Wait()
	if firstError(errs) != nil {
		return baseline.FitForecaster(kind, m, samples, opt)
	}
	return baseline.Join(parts)
}
