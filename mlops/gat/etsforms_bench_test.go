package gat_test

import (
	"math"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// BenchmarkETSKeptFormOnValidation asks, on validation rows only, whether
// the ladder's second ets fit (on the training rows) could keep the form
// its first fit (on the fitting rows) chose and re-estimate only its
// parameters, as R refits a given model. One level down, so that only
// validation rows are scored: the forms are chosen on the fitting rows
// less their last validation-span's worth (the first fit's rows), then
// ets is fitted on every fitting row (the second fit's) by a full search
// and by keeping those forms, and both are scored one step ahead on the
// validation rows. The rule, fixed before the run: keeping the form
// passes if on every panel its validation MSE is at most 1.005 times the
// full search's; the benchmark also prints the share of entities whose
// form the full search changes and the CPU time of the two second fits
// (same run). Passing is what would let a later change wire it into
// gat.Methods; this benchmark changes nothing.
func BenchmarkETSKeptFormOnValidation(b *testing.B) {
	panels := append(validationPanels(b), benchPanel{
		"catalogue-like (synthetic, 200 x 156, no season: 52 weeks is past a third of the rows)", catalogueLike(200, 156), 1})
	for range b.N {
		for _, p := range panels {
			cfg, fit, val, core, _ := levelDown(b, p)
			opt := baseline.Options{Window: cfg.Window, Season: p.season}
			first, err := baseline.FitForecaster(baseline.KindETS, p.m, core, opt)
			if err != nil {
				b.Fatal(err)
			}
			forms := first.(*baseline.ETS).Forms
			began := time.Now()
			full, err := baseline.FitForecaster(baseline.KindETS, p.m, fit, opt)
			if err != nil {
				b.Fatal(err)
			}
			fullTime := time.Since(began)
			began = time.Now()
			kept, err := baseline.FitETSForms(p.m, fit, opt, forms)
			if err != nil {
				b.Fatal(err)
			}
			keptTime := time.Since(began)
			changed := 0
			for i, f := range full.(*baseline.ETS).Forms {
				if f != forms[i] {
					changed++
				}
			}
			a, c := baseline.MSE(full, p.m, val, nil), baseline.MSE(kept, p.m, val, nil)
			b.Logf("%s (%d series): validation MSE full search %.4f, kept form %.4f, ratio %.4f; forms changed by the full search %d of %d; second fit %v full, %v kept (%.2f)",
				p.name, p.m.N, a, c, c/a, changed, p.m.N, fullTime.Round(time.Millisecond), keptTime.Round(time.Millisecond), keptTime.Seconds()/fullTime.Seconds())
		}
	}
}

// catalogueLike is n series of t weeks shaped as bench catalogue's
// products (a level, a yearly wave of a phase and amplitude of their own,
// a trend and noise), each z-scored on its first 70 % of rows: the same
// shape, from a seeded generator rather than DuckDB's hash.
func catalogueLike(n, t int) series.Matrix {
	m := series.Matrix{T: t, N: n, Values: make([]float64, t*n)}
	u := func(i, salt int) float64 { // a fixed pseudo-random number in [0, 1)
		x := uint64(i*7919+salt) * 0x9E3779B97F4A7C15
		x ^= x >> 31
		x *= 0xBF58476D1CE4E5B9
		x ^= x >> 29
		return float64(x%10000) / 10000
	}
	for i := range n {
		level, amp, phase, trend := 100+50*u(i, 1), 10+30*u(i, 2), 6.283*u(i, 3), (u(i, 4)-0.5)*0.4
		col := make([]float64, t)
		for w := range t {
			col[w] = level + amp*math.Sin(2*math.Pi*float64(w)/52+phase) + trend*float64(w) + 8*(u(i*1000003+w*31, 5)-0.5)
		}
		zscore(col, t*7/10)
		for w, v := range col {
			m.Values[w*n+i] = v
		}
	}
	return m
}

// zscore scales col by the mean and standard deviation of its first rows.
func zscore(col []float64, rows int) {
	var sum, sq float64
	for _, v := range col[:rows] {
		sum += v
	}
	mean := sum / float64(rows)
	for _, v := range col[:rows] {
		sq += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(sq / float64(rows))
	for k := range col {
		col[k] = (col[k] - mean) / sd
	}
}
