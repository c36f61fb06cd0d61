package baseline_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// etsReference is one series of testdata/ets_reference.json, written by
// testdata/ets_reference.R: what forecast::ets(y) chose and forecast.
type etsReference struct {
	Name      string    `json:"name"`
	Season    int       `json:"season"`
	Y         []float64 `json:"y"`
	Form      string    `json:"form"`
	Alpha     float64   `json:"alpha"`
	Beta      float64   `json:"beta"`
	Gamma     float64   `json:"gamma"`
	Phi       float64   `json:"phi"`
	InitState []float64 `json:"initstate"`
	LogLik    float64   `json:"loglik"`
	AICc      float64   `json:"aicc"`
	// Forecast is the state space point forecast (forecast.ets with
	// simulate = TRUE); ForecastDefault is forecast.ets's default mean.
	Forecast        []float64 `json:"forecast"`
	ForecastDefault []float64 `json:"forecast_default"`
}

// etsReferences reads the reference series.
func etsReferences(t testing.TB) []etsReference {
	data, err := os.ReadFile(filepath.Join("testdata", "ets_reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var refs []etsReference
	if err := json.Unmarshal(data, &refs); err != nil {
		t.Fatal(err)
	}
	return refs
}

// column is y as a matrix of one entity.
func column(y []float64) series.Matrix {
	return series.Matrix{T: len(y), N: 1, Values: append([]float64(nil), y...)}
}

// sd returns the standard deviation of y.
func sd(y []float64) float64 {
	var sum, sq float64
	for _, v := range y {
		sum += v
	}
	mu := sum / float64(len(y))
	for _, v := range y {
		sq += (v - mu) * (v - mu)
	}
	return math.Sqrt(sq / float64(len(y)-1))
}

// TestETSReference fits ets on each reference series, all its rows, and
// checks that it chooses the form forecast::ets(y) chose, with R's AICc
// within 0.01, and forecasts as forecast.ets does within 1e-6 of the
// series' standard deviation, or 0.01 of it for forms with a
// multiplicative season, whose mean forecast.ets corrects with the
// variance past one season (its class 3) where Mallard keeps the state
// space point forecast.
func TestETSReference(t *testing.T) {
	for _, r := range etsReferences(t) {
		t.Run(r.Name, func(t *testing.T) {
			m := column(r.Y)
			train := make([]int, 0, m.T)
			for i := 1; i < m.T; i++ {
				train = append(train, i)
			}
			f, err := baseline.FitForecaster(baseline.KindETS, m, train, baseline.Options{Window: 1, Season: r.Season})
			if err != nil {
				t.Fatal(err)
			}
			e := f.(*baseline.ETS)
			if e.Forms[0] != r.Form {
				t.Errorf("form %s, R chose %s", e.Forms[0], r.Form)
			}
			if d := math.Abs(e.AICc[0] - r.AICc); !(d <= 0.01) {
				t.Errorf("AICc %v, R's %v", e.AICc[0], r.AICc)
			}
			tol := 1e-6
			if strings.HasSuffix(r.Form, ",M") {
				tol = 0.01
			}
			got := baseline.Rows(len(r.ForecastDefault), 1)
			e.Forecast(m, m.T, got)
			for k := range got {
				if d := math.Abs(got[k][0]-r.ForecastDefault[k]) / sd(r.Y); !(d <= tol) {
					t.Errorf("step %d: forecast %v, R's %v", k+1, got[k][0], r.ForecastDefault[k])
				}
			}
		})
	}
}
