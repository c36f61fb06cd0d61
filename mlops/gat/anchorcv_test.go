package gat_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// quarterlyPanel is a seeded panel of n quarterly series of rows rows:
// a level, a trend, a season of period 4 and AR(1) noise, each z-scored
// on its first 70 % of rows, as the bench's panels are.
func quarterlyPanel(n, rows int, seed uint64) series.Matrix {
	rng := rand.New(rand.NewPCG(seed, 4))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range n {
		trend, amp, phi := 0.02+0.05*rng.Float64(), 0.5+rng.Float64(), 0.3+0.6*rng.Float64()
		season := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), 0}
		var noise float64
		for t := range rows {
			noise = phi*noise + 0.3*rng.NormFloat64()
			m.Values[t*n+i] = trend*float64(t) + amp*season[t%4] + noise
		}
	}
	train := rows * 7 / 10
	for i := range n {
		var sum, sq float64
		for t := range train {
			sum += m.At(t, i)
		}
		mean := sum / float64(train)
		for t := range train {
			sq += (m.At(t, i) - mean) * (m.At(t, i) - mean)
		}
		sd := math.Sqrt(sq / float64(train-1))
		for t := range rows {
			m.Values[t*n+i] = (m.At(t, i) - mean) / sd
		}
	}
	return m
}

// rollingStarts are the first rows of the rolling-origin blocks of
// anchor "auto" at horizon 1, recomputed here: blocks of half the
// validation span, two over it and two over the fitting rows before it.
func rollingStarts(fit, val []int) []int {
	step := (len(val) + 1) / 2
	v0 := len(fit)
	var starts []int
	for k := (len(val) + step - 1) / step; k > 0; k-- {
		if s := v0 - k*step; s >= max(1, v0/2) {
			starts = append(starts, s)
		}
	}
	for s := v0; s < len(fit)+len(val); s += step {
		starts = append(starts, s)
	}
	return starts
}

// fitKind fits one anchor candidate on rows as anchor "auto" does: the
// last value with a highway of lags as the highway's ar_diff.
func fitKind(m series.Matrix, cfg gat.Config, kind string, rows []int) (baseline.Forecaster, error) {
	if kind == gat.AnchorLastValue {
		return baseline.FitARDiff(m, cfg.Highway, rows)
	}
	return baseline.FitForecaster(baseline.Kind(kind), m, rows, baseline.Options{Window: cfg.Window, Season: max(1, cfg.Season)})
}

// TestAnchorAutoRollingOrigin checks anchor "auto": every single
// candidate's reported score is its rolling-origin MSE, refitted on the
// training rows before each of four blocks of half the validation span
// (two of them over fitting rows) and forecasting the block's rows with
// its parameters fixed; the anchor is the candidate or combination with
// the lowest score, and the untrained network forecasts it fitted on every
// training row.
func TestAnchorAutoRollingOrigin(t *testing.T) {
	m := quarterlyPanel(3, 84, 1)
	cfg := gat.DefaultConfig()
	cfg.Season = 4
	model, err := gat.Untrained(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	a := model.Anchor
	fit, val, test, _ := cfg.Samples(m)
	train := slices.Concat(fit, val)
	starts := rollingStarts(fit, val)
	if len(starts) != 4 {
		t.Fatalf("%d blocks, want 4 (fit %d, validation %d)", len(starts), len(fit), len(val))
	}
	singles := slices.DeleteFunc(gat.AnchorKinds(), func(k string) bool {
		return k == gat.AnchorCombination || k == gat.AnchorPerEntity || slices.Contains(gat.FixedCombinations(), k)
	})
	if len(a.Validation) != len(singles)+1 {
		t.Fatalf("scores %v, want one for each of %v and the combination", a.Validation, singles)
	}
	for _, kind := range singles {
		var sse float64
		for b, s := range starts {
			end := len(train)
			if b+1 < len(starts) {
				end = starts[b+1]
			}
			f, err := fitKind(m, cfg, kind, train[:s])
			if err != nil {
				t.Fatal(err)
			}
			sse += baseline.MSE(f, m, train[s:end], nil) * float64(end-s)
		}
		want := sse / float64(len(train)-starts[0])
		if got := a.Validation[kind]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: score %v, want its rolling-origin MSE %v", kind, got, want)
		}
	}
	for k, v := range a.Validation {
		if v < a.Validation[a.Kind] {
			t.Errorf("chose %s (%v), but %s scores %v", a, a.Validation[a.Kind], k, v)
		}
	}
	var want baseline.Forecaster
	if a.Kind == gat.AnchorCombination {
		mean := &baseline.Mean{}
		for _, member := range a.Members {
			kind := member.Kind
			if kind == string(baseline.KindARDiff) {
				kind = gat.AnchorLastValue
			}
			f, err := fitKind(m, cfg, kind, train)
			if err != nil {
				t.Fatal(err)
			}
			mean.Members = append(mean.Members, f)
		}
		want = mean
	} else if want, err = fitKind(m, cfg, a.Kind, train); err != nil {
		t.Fatal(err)
	}
	sameForecasts(t, model, want, m, []int{test[0], test[10], m.T}, 1e-12)
}

// TestAnchorAutoWeighsFixedCombination checks Config.CombineFixed: anchor
// "auto" then also scores the mean (or the median) of ets, arima and
// theta on the same rolling origins (each member refitted before each
// block), reports that score under the combination's name, and chooses
// it only where it scores lowest; without it there is no such score.
func TestAnchorAutoWeighsFixedCombination(t *testing.T) {
	for _, fixed := range gat.FixedCombinations() {
		for seed := range uint64(3) {
			autoWeighsFixed(t, fixed, seed)
		}
	}
}

// autoWeighsFixed is TestAnchorAutoWeighsFixedCombination on one seeded
// quarterly panel with the fixed combination fixed.
func autoWeighsFixed(t *testing.T, fixed string, seed uint64) {
	t.Helper()
	m := quarterlyPanel(3, 84, seed)
	cfg := gat.DefaultConfig()
	cfg.Season = 4
	plain, err := gat.Untrained(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := plain.Anchor.Validation[fixed]; ok {
		t.Errorf("%s seed %d: without CombineFixed, scores %v", fixed, seed, plain.Anchor.Validation)
	}
	cfg.CombineFixed = fixed
	model, err := gat.Untrained(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	a := model.Anchor
	fit, val, _, _ := cfg.Samples(m)
	train := slices.Concat(fit, val)
	starts := rollingStarts(fit, val)
	median := fixed == gat.AnchorETSARIMAThetaMedian
	var sse float64
	for b, s := range starts {
		end := len(train)
		if b+1 < len(starts) {
			end = starts[b+1]
		}
		mean := &baseline.Mean{Median: median}
		for _, kind := range []string{"ets", "arima", "theta"} {
			f, err := fitKind(m, cfg, kind, train[:s])
			if err != nil {
				t.Fatal(err)
			}
			mean.Members = append(mean.Members, f)
		}
		sse += baseline.MSE(mean, m, train[s:end], nil) * float64(end-s)
	}
	want := sse / float64(len(train)-starts[0])
	got, ok := a.Validation[fixed]
	if !ok || math.Abs(got-want) > 1e-9*want {
		t.Fatalf("%s seed %d: scores %v (%v), want its rolling-origin MSE %v", fixed, seed, got, ok, want)
	}
	lowest := true
	for k, v := range a.Validation {
		lowest = lowest && (k == fixed || v > got)
	}
	name := "combination of ets, arima, theta"
	if median {
		name = "median of ets, arima, theta"
	}
	if chosen := a.String() == name; chosen != lowest {
		t.Errorf("%s seed %d: chose %s with scores %v", fixed, seed, a, a.Validation)
	}
	if !lowest && a.String() != plain.Anchor.String() {
		t.Errorf("%s seed %d: chose %s, %s without CombineFixed", fixed, seed, a, plain.Anchor)
	}
}

// TestAnchorAutoOnShortPanels checks where the choice matters: on eight
// seeded panels of 3 quarterly series with 58 training rows (8 of them
// validation, two seasons), the untrained network anchored by "auto"
// forecasts the test rows one step ahead, on average over the panels,
// at least as well as the single candidate that is best on each panel's
// test rows in hindsight, fitted on the training rows (0.974 times it).
// Choosing on the 8 validation rows alone, with the candidates fitted on
// the fitting rows (the choice before the rolling origins), averaged
// 1.077 times it.
func TestAnchorAutoOnShortPanels(t *testing.T) {
	var sum float64
	const panels = 8
	for seed := range uint64(panels) {
		m := quarterlyPanel(3, 84, seed+1)
		cfg := gat.DefaultConfig()
		cfg.Season = 4
		model, err := gat.Untrained(cfg, m)
		if err != nil {
			t.Fatal(err)
		}
		fit, val, test, _ := cfg.Samples(m)
		best := math.Inf(1)
		for _, kind := range gat.AnchorKinds()[:7] {
			f, err := fitKind(m, cfg, kind, slices.Concat(fit, val))
			if err != nil {
				t.Fatal(err)
			}
			best = min(best, baseline.MSE(f, m, test, nil))
		}
		got, err := model.MSE(m, test)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("panel %d: %s, test MSE %.4f, %.3f times the best single candidate's", seed+1, model.Anchor, got, got/best)
		sum += got / best
	}
	if mean := sum / panels; mean > 1 {
		t.Errorf("auto's test MSE is on average %.3f times the best single candidate's, want at most 1", mean)
	}
}

// TestAnchorAutoOnValidationSpan checks anchor "auto" with anchor
// origins "validation" (the rule past gat.CatalogueEntities entities):
// every single candidate's score is its MSE over the validation rows,
// fitted on the fitting rows alone, and the anchor is the lowest scored.
func TestAnchorAutoOnValidationSpan(t *testing.T) {
	m := quarterlyPanel(3, 84, 1)
	cfg := gat.DefaultConfig()
	cfg.Season, cfg.AnchorOrigins = 4, gat.AnchorOriginsValidation
	model, err := gat.Untrained(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	a := model.Anchor
	fit, val, _, _ := cfg.Samples(m)
	singles := slices.DeleteFunc(gat.AnchorKinds(), func(k string) bool {
		return k == gat.AnchorCombination || k == gat.AnchorPerEntity || slices.Contains(gat.FixedCombinations(), k)
	})
	if len(a.Validation) != len(singles)+1 {
		t.Fatalf("scores %v, want one for each of %v and the combination", a.Validation, singles)
	}
	for _, kind := range singles {
		f, err := fitKind(m, cfg, kind, fit)
		if err != nil {
			t.Fatal(err)
		}
		want := baseline.MSE(f, m, val, nil)
		if got := a.Validation[kind]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: score %v, want its validation MSE %v", kind, got, want)
		}
	}
	for k, v := range a.Validation {
		if v < a.Validation[a.Kind] {
			t.Errorf("chose %s (%v), but %s scores %v", a, a.Validation[a.Kind], k, v)
		}
	}
}
