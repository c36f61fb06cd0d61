package gat_test

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// TestUntrainedIsItsAnchor checks epoch 0 of an anchored network: with
// its last layer at zero it forecasts exactly what its anchor forecasts,
// one step ahead and recursively over 6 steps: persistence without a
// highway, the ar_diff baseline with one (fitted on the fitting rows, as
// the network is), and ets and theta fitted on every training row.
func TestUntrainedIsItsAnchor(t *testing.T) {
	m := unemployment(t)
	tests := []struct {
		name    string
		anchor  string
		highway int
		want    func(fit, train []int) (baseline.Forecaster, error)
		tol     float64
	}{
		{"persistence", gat.AnchorLastValue, 0, func(_, _ []int) (baseline.Forecaster, error) { return baseline.LastValue{}, nil }, 0},
		{"ar_diff", gat.AnchorLastValue, 4, func(fit, _ []int) (baseline.Forecaster, error) { return baseline.FitARDiff(m, 4, fit) }, 1e-12},
		{"ets", "ets", 4, func(_, train []int) (baseline.Forecaster, error) {
			return baseline.FitForecaster(baseline.KindETS, m, train, baseline.Options{Window: 4, Season: 12})
		}, 1e-12},
		{"theta", "theta", 0, func(_, train []int) (baseline.Forecaster, error) {
			return baseline.FitForecaster(baseline.KindTheta, m, train, baseline.Options{Window: 4, Season: 12})
		}, 1e-12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := gat.DefaultConfig()
			cfg.Anchor, cfg.Highway, cfg.Season = tt.anchor, tt.highway, 12
			model, err := gat.Untrained(cfg, m)
			if err != nil {
				t.Fatal(err)
			}
			fit, val, test, _ := cfg.Samples(m)
			want, err := tt.want(fit, slices.Concat(fit, val))
			if err != nil {
				t.Fatal(err)
			}
			sameForecasts(t, model, want, m, []int{test[0], test[10], m.T}, tt.tol)
		})
	}
}

// TestETSARIMAThetaAnchor checks anchors "ets_arima_theta" and
// "ets_arima_theta_median": nothing is chosen, and the untrained network
// forecasts the mean, or the median, of ets, arima and theta, each
// fitted on every training row.
func TestETSARIMAThetaAnchor(t *testing.T) {
	m := unemployment(t)
	for _, tt := range []struct {
		anchor, name string
		median       bool
	}{
		{gat.AnchorETSARIMATheta, "combination of ets, arima, theta", false},
		{gat.AnchorETSARIMAThetaMedian, "median of ets, arima, theta", true},
	} {
		cfg := gat.DefaultConfig()
		cfg.Anchor, cfg.Season = tt.anchor, 12
		model, err := gat.Untrained(cfg, m)
		if err != nil {
			t.Fatal(err)
		}
		if got := model.Anchor.String(); got != tt.name || model.Anchor.Validation != nil {
			t.Fatalf("%s: anchor %s, scores %v", tt.anchor, got, model.Anchor.Validation)
		}
		fit, val, test, _ := cfg.Samples(m)
		want := &baseline.Mean{Median: tt.median}
		for _, kind := range []baseline.Kind{baseline.KindETS, baseline.KindARIMA, baseline.KindTheta} {
			f, err := baseline.FitForecaster(kind, m, slices.Concat(fit, val), baseline.Options{Window: 4, Season: 12})
			if err != nil {
				t.Fatal(err)
			}
			want.Members = append(want.Members, f)
		}
		sameForecasts(t, model, want, m, []int{test[0], test[10], m.T}, 1e-12)
		span := model.Config.Span()
		data, err := (&gat.Artifact{Model: model, Entities: make([]string, m.N), Tail: m.Values[(m.T-span)*m.N:]}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := gat.UnmarshalArtifact(data)
		if err != nil {
			t.Fatal(err)
		}
		sameForecasts(t, back.Model, want, m, []int{test[0], m.T}, 1e-12) // a stored model keeps the median
	}
}

// sameForecasts fails unless the model forecasts what want forecasts, 6
// steps from each origin, within tol relative.
func sameForecasts(t *testing.T, model *gat.Model, want baseline.Forecaster, m series.Matrix, origins []int, tol float64) {
	t.Helper()
	got, err := model.Forecaster()
	if err != nil {
		t.Fatal(err)
	}
	for _, origin := range origins {
		a, b := baseline.Rows(6, m.N), baseline.Rows(6, m.N)
		got.Forecast(m, origin, a)
		want.Forecast(m, origin, b)
		for k := range a {
			for i := range a[k] {
				if d := math.Abs(a[k][i] - b[k][i]); d > tol*(1+math.Abs(b[k][i])) || math.IsNaN(d) {
					t.Fatalf("origin %d step %d entity %d: untrained network %v, %s %v", origin, k+1, i, a[k][i], want.Name(), b[k][i])
				}
			}
		}
	}
}

// TestCombinationAnchor checks anchor "combination": its members are the
// two or three single candidates with the lowest validation MSE, the
// last value with the highway standing in as the highway's ar_diff; the
// validation MSE reported is that of their equal-weight mean fitted on
// the fitting rows, and the untrained network forecasts their mean fitted
// on every training row.
func TestCombinationAnchor(t *testing.T) {
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Anchor, cfg.Highway, cfg.Season = gat.AnchorCombination, 12, 12
	model, err := gat.Untrained(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	a := model.Anchor
	if a.Kind != gat.AnchorCombination || len(a.Members) < 2 || len(a.Members) > 3 {
		t.Fatalf("anchor %v", a)
	}
	singles := slices.DeleteFunc(slices.Clone(gat.AnchorKinds()), func(k string) bool {
		return k == gat.AnchorCombination || slices.Contains(gat.FixedCombinations(), k)
	})
	slices.SortFunc(singles, func(x, y string) int { return cmp.Compare(a.Validation[x], a.Validation[y]) })
	fit, val, test, _ := cfg.Samples(m)
	onFit, onTrain := &baseline.Mean{}, &baseline.Mean{}
	for i, member := range a.Members {
		kind := member.Kind
		if kind == string(baseline.KindARDiff) {
			kind = gat.AnchorLastValue
		}
		if kind != singles[i] {
			t.Errorf("member %d is %s, but the candidates by validation MSE are %v (%v)", i, member.Kind, singles, a.Validation)
		}
		for _, c := range []struct {
			rows []int
			mean *baseline.Mean
		}{{fit, onFit}, {slices.Concat(fit, val), onTrain}} {
			var f baseline.Forecaster
			if kind == gat.AnchorLastValue {
				f, err = baseline.FitARDiff(m, cfg.Highway, c.rows)
			} else {
				f, err = baseline.FitForecaster(baseline.Kind(kind), m, c.rows, baseline.Options{Window: cfg.Window, Season: 12})
			}
			if err != nil {
				t.Fatal(err)
			}
			c.mean.Members = append(c.mean.Members, f)
		}
	}
	sameForecasts(t, model, onTrain, m, []int{test[0], test[10], m.T}, 1e-12)
	if got := baseline.MSE(onFit, m, val, nil); math.Abs(got-a.Validation[gat.AnchorCombination]) > 1e-12 {
		t.Errorf("the combination fitted on the fitting rows has validation MSE %v, %v reported", got, a.Validation[gat.AnchorCombination])
	}
	if want := "combination of " + a.Members[0].Kind; !strings.HasPrefix(a.String(), want) {
		t.Errorf("String() = %q, want it to start %q", a.String(), want)
	}
}
