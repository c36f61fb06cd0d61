package gat

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestMethodsReuseAnchorFits: a run whose anchor was chosen among the
// candidates, ets among them, hands its fits to Methods. The validation
// ladder (Methods on the anchor's fitting samples) then holds the very ets
// the anchor's choice fitted, so ets is fitted once, and every method's
// forecasts equal those of a ladder fitted anew. On other samples, or on
// another matrix with the same values, nothing is reused.
func TestMethodsReuseAnchorFits(t *testing.T) {
	const n, rows, season = 4, 120, 12
	rng := rand.New(rand.NewPCG(7, 8))
	m := series.Matrix{N: n, T: rows, Values: make([]float64, n*rows)}
	for r := range rows {
		for i := range n {
			m.Values[r*n+i] = math.Sin(2*math.Pi*float64(r)/season+float64(i)) + 0.01*float64(r) + 0.1*rng.NormFloat64()
		}
	}
	cfg := DefaultConfig()
	cfg.Window, cfg.Hidden, cfg.Epochs, cfg.Season, cfg.Anchor, cfg.Workers = 4, []int{4}, 1, season, AnchorAuto, 2
	model, err := Train(context.Background(), cfg, m, func(Epoch) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	fit, val, _, err := model.Config.Samples(m)
	if err != nil || len(val) == 0 {
		t.Fatalf("Samples: %d validation samples, %v", len(val), err)
	}
	opt := baseline.Options{Window: cfg.Window, Season: season}
	anchorETS := model.Anchor.reuse(baseline.KindETS, m, fit, opt)
	if anchorETS == nil {
		t.Fatalf("the anchor %s kept no ets fit on its samples (%d fits)", model.Anchor, len(model.Anchor.fits))
	}
	reused, _, err := Methods(model, m, fit, season)
	if err != nil {
		t.Fatal(err)
	}
	if f := method(reused, string(baseline.KindETS)); f != anchorETS {
		t.Errorf("the ladder's ets is %p, want the anchor's %p: ets was fitted twice", f, anchorETS)
	}
	plain := *model
	anchor := *model.Anchor
	anchor.fits = nil
	plain.Anchor = &anchor
	fresh, _, err := Methods(&plain, m, fit, season)
	if err != nil {
		t.Fatal(err)
	}
	if method(fresh, string(baseline.KindETS)) == anchorETS {
		t.Fatal("a model without the anchor's fits reused its ets")
	}
	if len(fresh) != len(reused) {
		t.Fatalf("%d methods with reuse, %d without", len(reused), len(fresh))
	}
	for k := range fresh {
		for _, origin := range []int{fit[len(fit)-1] + 1, rows - 6} {
			a, b := forecasts(reused[k], m, origin, 3), forecasts(fresh[k], m, origin, 3)
			if !slices.Equal(a, b) {
				t.Errorf("%s from row %d: %v with reuse, %v without", fresh[k].Name(), origin, a, b)
			}
		}
	}
	train := append(slices.Clone(fit), val...)
	if other, _, err := Methods(model, m, train, season); err != nil || method(other, string(baseline.KindETS)) == anchorETS {
		t.Errorf("the ladder on other samples reused the anchor's ets (err %v)", err)
	}
	copied := series.Matrix{N: n, T: rows, Values: slices.Clone(m.Values)}
	if other, _, err := Methods(model, copied, fit, season); err != nil || method(other, string(baseline.KindETS)) == anchorETS {
		t.Errorf("the ladder on another matrix reused the anchor's ets (err %v)", err)
	}
}

func method(fs []baseline.Forecaster, name string) baseline.Forecaster {
	for _, f := range fs {
		if f.Name() == name {
			return f
		}
	}
	return nil
}

// forecasts are f's h-step forecasts from origin, row after row.
func forecasts(f baseline.Forecaster, m series.Matrix, origin, h int) []float64 {
	dst := make([][]float64, h)
	for i := range dst {
		dst[i] = make([]float64, m.N)
	}
	f.Forecast(m, origin, dst)
	return slices.Concat(dst...)
}

// TestFitBaselineBlocks checks that ets fitted on blocks of entities, on
// up to 5 goroutines, is the fit of the whole matrix, value for value, and
// that a block that fails gives the error of the whole matrix's fit.
func TestFitBaselineBlocks(t *testing.T) {
	const n, rows, season = 7, 96, 12
	rng := rand.New(rand.NewPCG(5, 6))
	m := series.Matrix{N: n, T: rows, Values: make([]float64, n*rows)}
	for r := range rows {
		for i := range n {
			m.Values[r*n+i] = math.Sin(2*math.Pi*float64(r)/season+float64(i)) + 0.02*float64(r*i) + 0.2*rng.NormFloat64()
		}
	}
	var train []int
	for r := 4; r < 70; r++ {
		train = append(train, r)
	}
	opt := baseline.Options{Window: 4, Season: season}
	want, err := baseline.FitForecaster(baseline.KindETS, m, train, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 3, 5, 20} {
		got, err := fitBaseline(baseline.KindETS, m, train, opt, workers)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: the ets fit differs from the whole matrix's", workers)
		}
	}
	bad := series.Matrix{N: n, T: rows, Values: slices.Clone(m.Values)}
	bad.Values[10*n+5] = math.NaN()
	_, wantErr := baseline.FitForecaster(baseline.KindETS, bad, train, opt)
	if _, err := fitBaseline(baseline.KindETS, bad, train, opt, 3); err == nil || wantErr == nil || err.Error() != wantErr.Error() {
		t.Errorf("a NaN at row 10, entity 5: error %v, want %v", err, wantErr)
	}
}
