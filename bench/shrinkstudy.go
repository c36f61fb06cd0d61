package main

import (
	"fmt"
	"io"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// shrinkScore is one seed's figures of the shrinkage study (see
// docs/forecasting.md, "Shrinking the network's correction toward its
// anchor"): the kept epoch's validation MSE, the shrunk network's
// (in-sample: its weight is fitted on those rows) and the shrinkage's
// cross-fitted one, the weight, the shrunk network's test figures, and
// the time shrinking took beside the training's.
type shrinkScore struct {
	kept                  int
	val, valShrunk, valCV float64
	alpha                 float64
	mse, rel              float64
	shrink, train         time.Duration
}

// shrinkStudy shrinks model, trained on ds with train time, toward its
// anchor alone (untrained, the untrained network) and scores it. It
// builds its own forecasters, which are not safe for concurrent use.
func shrinkStudy(ds fcData, model, untrained *gat.Model, train time.Duration, h int, origins []int) (shrinkScore, error) {
	start := time.Now()
	shrunk, alpha, err := gat.Shrink(model, ds.m)
	if err != nil {
		return shrinkScore{}, err
	}
	took := time.Since(start)
	_, val, test, err := model.Config.Samples(ds.m)
	if err != nil {
		return shrinkScore{}, err
	}
	g, err := model.Forecaster()
	if err != nil {
		return shrinkScore{}, err
	}
	anchor, err := untrained.Forecaster()
	if err != nil {
		return shrinkScore{}, err
	}
	f, err := shrunk.Forecaster()
	if err != nil {
		return shrinkScore{}, err
	}
	return shrinkScore{kept: model.Kept, val: model.Score(), valShrunk: shrunk.Score(),
		valCV: crossFitted(anchor, g, ds.m, val), alpha: alpha,
		mse: oneStep(f, ds.m, test), rel: relMSE(ds.m, origins, h, multiStep(f, ds.m, origins, h)),
		shrink: took, train: train}, nil
}

// crossFitted is the one-step MSE over val of a + α (g − a), the rows of
// each half of val forecast with the α fitted on the other half (as
// gat.Shrink fits it, clipped to [0, 1]).
func crossFitted(a, g baseline.Forecaster, m series.Matrix, val []int) float64 {
	half := len(val) / 2
	parts := [2][]int{val[:half], val[half:]}
	var sum float64
	for k, part := range parts {
		alpha := fitAlpha(a, g, m, parts[1-k])
		for _, c := range cells(a, g, m, part) {
			d := c.a + alpha*(c.g-c.a) - c.y
			sum += d * d
		}
	}
	return sum / float64(len(val)*m.N)
}

// cell is one entity's forecasts a (the anchor) and g (the network) of a
// row whose value is y.
type cell struct{ a, g, y float64 }

func cells(a, g baseline.Forecaster, m series.Matrix, rows []int) []cell {
	da, dg := baseline.Rows(1, m.N), baseline.Rows(1, m.N)
	var out []cell
	for _, t := range rows {
		a.Forecast(m, t, da)
		g.Forecast(m, t, dg)
		for i := range m.N {
			out = append(out, cell{da[0][i], dg[0][i], m.At(t, i)})
		}
	}
	return out
}

// fitAlpha is the least-squares weight of y − a on g − a over rows,
// clipped to [0, 1]; 1 where g equals a.
func fitAlpha(a, g baseline.Forecaster, m series.Matrix, rows []int) float64 {
	var num, den float64
	for _, c := range cells(a, g, m, rows) {
		num, den = num+(c.g-c.a)*(c.y-c.a), den+(c.g-c.a)*(c.g-c.a)
	}
	if den == 0 {
		return 1
	}
	return min(1, max(0, num/den))
}

// printShrink writes the study's figures per seed and their medians.
func printShrink(w io.Writer, name string, scores []shrinkScore) {
	pick := func(f func(shrinkScore) float64) float64 { return medianOf(scores, f) }
	for seed, s := range scores {
		fmt.Fprintf(w, "shrink %s seed %d: kept %d, alpha %.3f, validation kept %.5f shrunk %.5f cross-fitted %.5f, test shrunk %.5f / %.4f, time shrink %v of training %v\n",
			name, seed, s.kept, s.alpha, s.val, s.valShrunk, s.valCV, s.mse, s.rel, s.shrink.Round(time.Millisecond), s.train.Round(time.Millisecond))
	}
	fmt.Fprintf(w, "shrink %s median: validation kept %.5f shrunk %.5f cross-fitted %.5f (cross-fitted / kept %.4f), alpha %.3f, time (training+shrink)/training %.3f\n",
		name, pick(func(s shrinkScore) float64 { return s.val }), pick(func(s shrinkScore) float64 { return s.valShrunk }),
		pick(func(s shrinkScore) float64 { return s.valCV }), pick(func(s shrinkScore) float64 { return s.valCV / s.val }),
		pick(func(s shrinkScore) float64 { return s.alpha }),
		pick(func(s shrinkScore) float64 { return float64(s.train+s.shrink) / float64(s.train) }))
}

// medianOf is the median of f over scores.
func medianOf(scores []shrinkScore, f func(shrinkScore) float64) float64 {
	xs := make([]float64, len(scores))
	for i, s := range scores {
		xs[i] = f(s)
	}
	return median(xs)
}
