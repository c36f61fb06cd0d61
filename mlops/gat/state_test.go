package gat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// TestForecastStateAgreesWithRefitting trains on the unemployment panel,
// keeps the forecast state evaluation gives (through JSON, as an artifact
// stores it) and checks, for every method, that its forecasts past the
// data and its interval widths equal those of the methods fitted again
// (gat.Methods on the training samples, and on the fitting samples for the
// widths over the validation rows), as forecast computed them before; and
// that one entity's forecast is that entity's column.
func TestForecastStateAgreesWithRefitting(t *testing.T) {
	m, model, st, fit, val := storedState(t)
	fs, _, err := gat.Methods(model, m, append(slices.Clone(fit), val...), 12)
	if err != nil {
		t.Fatal(err)
	}
	vfs, _, err := gat.Methods(model, m, fit, 12)
	if err != nil {
		t.Fatal(err)
	}
	const steps = 14 // past the 12 steps of kept widths
	for k, f := range fs {
		want := baseline.Rows(steps, m.N)
		f.Forecast(m, m.T, want)
		got, ok, err := st.Forecast(model, m, f.Name(), steps, -1)
		if err != nil || !ok || !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s: forecast from state %v (ok %v, %v), refitted %v", f.Name(), got[0][:3], ok, err, want[0][:3])
		}
		one, _, _ := st.Forecast(model, m, f.Name(), steps, 3)
		for s := range steps {
			if one[s][3] != want[s][3] {
				t.Fatalf("%s: entity 3 step %d: %v, want %v", f.Name(), s+1, one[s][3], want[s][3])
			}
		}
		wantHalf := gat.EntityHalfWidths(gat.EntityResiduals(vfs[k], m, val[0], val[len(val)-1]+1, 12), 0.9)
		for s := 12; s < steps; s++ {
			wantHalf = append(wantHalf, slices.Clone(wantHalf[11]))
			for i := range wantHalf[s] {
				wantHalf[s][i] *= math.Sqrt(float64(s+1) / 12)
			}
		}
		half, ok := st.HalfWidths(f.Name(), steps, 0.9)
		if !ok || !slices.EqualFunc(half, wantHalf, slices.Equal) {
			t.Errorf("%s: widths from state %v, refitted %v", f.Name(), half[0][:3], wantHalf[0][:3])
		}
	}
	if _, ok, _ := st.Forecast(model, m, "nonesuch", 1, -1); ok {
		t.Error("a method the state does not keep was forecast")
	}
}

// TestWidthsBoundTheirSize: past widthsKept pooled errors a step keeps
// 1025 order statistics, and the quantile it reads is never below the
// exact one and at most a thousandth of the level above it.
func TestWidthsBoundTheirSize(t *testing.T) {
	entities, origins := 300, 10
	residuals := [][][]float64{make([][]float64, entities)}
	for i := range entities {
		for o := range origins {
			residuals[0][i] = append(residuals[0][i], math.Abs(math.Sin(float64(i*origins+o))))
		}
	}
	w := gat.NewWidths(residuals)
	if len(w.Steps[0]) != 1025 || w.Count[0] != entities*origins {
		t.Fatalf("kept %d of %d", len(w.Steps[0]), w.Count[0])
	}
	for _, level := range []float64{0.5, 0.8, 0.9, 0.95, 0.99} {
		exact := gat.EntityHalfWidths(residuals, level)[0]
		got := w.HalfWidths(1, level)[0]
		upper := gat.EntityHalfWidths(residuals, level+1.0/1024)[0]
		for i := range exact {
			if got[i] < exact[i] || got[i] > upper[i] {
				t.Fatalf("level %v entity %d: %v, exact %v, at level+1/1024 %v", level, i, got[i], exact[i], upper[i])
			}
		}
	}
}

// TestWorkersFitTheLadderAlike checks that the ladder's and the anchor's
// per-series fits, spread over two workers, forecast exactly as on one:
// the anchor chosen automatically (and each candidate's validation MSE)
// and every method of gat.Methods.
func TestWorkersFitTheLadderAlike(t *testing.T) {
	m := unemployment(t)
	models := make([]*gat.Model, 2)
	for w := range models {
		cfg := gat.DefaultConfig()
		cfg.Epochs, cfg.Seed, cfg.Season, cfg.Anchor, cfg.Workers = 1, 1, 12, gat.AnchorAuto, w+1
		model, err := gat.Train(context.Background(), cfg, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		models[w] = model
	}
	one, two := models[0].Anchor, models[1].Anchor
	if one.String() != two.String() || string(one.Fit) != string(two.Fit) || fmt.Sprint(one.Validation) != fmt.Sprint(two.Validation) {
		t.Errorf("anchor on 1 worker %s %v, on 2 %s %v", one, one.Validation, two, two.Validation)
	}
	fit, _, _, err := models[0].Config.Samples(m)
	if err != nil {
		t.Fatal(err)
	}
	spread := *models[0]
	spread.Config.Workers = 2
	fs1, _, err := gat.Methods(models[0], m, fit, 12)
	if err != nil {
		t.Fatal(err)
	}
	fs2, _, err := gat.Methods(&spread, m, fit, 12)
	if err != nil {
		t.Fatal(err)
	}
	for k, f := range fs1 {
		a, b := baseline.Rows(6, m.N), baseline.Rows(6, m.N)
		f.Forecast(m, m.T, a)
		fs2[k].Forecast(m, m.T, b)
		if f.Name() != fs2[k].Name() || !slices.EqualFunc(a, b, slices.Equal) {
			t.Errorf("%s: 1 worker %v, 2 workers %s %v", f.Name(), a[0][:3], fs2[k].Name(), b[0][:3])
		}
	}
}

// TestLadderFromStateEqualsRefitting: the ladders a version's state
// rebuilds (through JSON, as an artifact stores it) equal gat.Methods
// fitted again on the training samples and on the fitting samples, bit
// for bit: the same methods in the same order, the same multi-step
// forecasts from every validation and test origin, and the same
// anomalies' expected values and half-widths (what evaluate, forecast
// 'auto' and detect_anomalies read).
func TestLadderFromStateEqualsRefitting(t *testing.T) {
	m, model, st, fit, val := storedState(t)
	for _, validation := range []bool{false, true} {
		samples := append(slices.Clone(fit), val...)
		if validation {
			samples = fit
		}
		want, _, err := gat.Methods(model, m, samples, 12)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := st.Ladder(model, validation)
		if err != nil || !ok || len(got) != len(want) {
			t.Fatalf("validation %v: %d methods from the state (ok %v, %v), %d refitted", validation, len(got), ok, err, len(want))
		}
		for k, f := range want {
			if got[k].Name() != f.Name() {
				t.Fatalf("validation %v: method %d is %s, refitted %s", validation, k, got[k].Name(), f.Name())
			}
			for o := val[0]; o < m.T; o += 5 {
				a, b := baseline.Rows(3, m.N), baseline.Rows(3, m.N)
				got[k].Forecast(m, o, a)
				f.Forecast(m, o, b)
				if !slices.EqualFunc(a, b, slices.Equal) {
					t.Fatalf("validation %v, %s from origin %d: %v, refitted %v", validation, f.Name(), o, a[0][:3], b[0][:3])
				}
			}
			e1, h1 := gat.Anomalies(got[k], m, fit[0], 0.99, gat.Units{})
			e2, h2 := gat.Anomalies(f, m, fit[0], 0.99, gat.Units{})
			if !slices.Equal(e1.Values, e2.Values) || !slices.Equal(h1, h2) {
				t.Errorf("validation %v, %s: anomalies from the state differ from the refitted method's", validation, f.Name())
			}
		}
	}
	st.Fits = false
	if _, ok, _ := st.Ladder(model, false); ok {
		t.Error("a state without fits rebuilt a ladder")
	}
}

// storedState trains a 2-epoch model of the unemployment panel (season
// 12, seed 1, 2 workers) and returns it with the forecast state its
// version keeps, read back through JSON as a stored version's is, and its
// fitting and validation samples.
func storedState(t *testing.T) (series.Matrix, *gat.Model, gat.ForecastState, []int, []int) {
	t.Helper()
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed, cfg.Season, cfg.Workers = 2, 1, 12, 2
	model, err := gat.Train(context.Background(), cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, kept, err := gat.EvaluateState(model, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(kept)
	if err != nil {
		t.Fatal(err)
	}
	var st gat.ForecastState
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if err := st.Validate(m.N); err != nil {
		t.Fatal(err)
	}
	fit, val, _, err := cfg.Samples(m)
	if err != nil {
		t.Fatal(err)
	}
	return m, model, st, fit, val
}
