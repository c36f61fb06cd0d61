package baseline_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// arimaReference is a series with what R's forecast::auto.arima chose for
// it, written by testdata/arima_reference.R.
type arimaReference struct {
	Name             string    `json:"name"`
	Period           int       `json:"period"`
	Values           []float64 `json:"values"`
	KPSSLags         int       `json:"kpss_lags"`
	KPSS             float64   `json:"kpss"`
	NDiffs           int       `json:"ndiffs"`
	SeasonalStrength float64   `json:"seasonal_strength"`
	Order            []int     `json:"order"`
	Constant         bool      `json:"constant"`
	CoefNames        []string  `json:"coef_names"`
	Coef             []float64 `json:"coef"`
	AICc             float64   `json:"aicc"`
	LogLik           float64   `json:"loglik"`
	Forecast         []float64 `json:"forecast"`
}

func arimaReferences(t testing.TB) []arimaReference {
	data, err := os.ReadFile(filepath.Join("testdata", "arima_reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var refs []arimaReference
	if err := json.Unmarshal(data, &refs); err != nil {
		t.Fatal(err)
	}
	return refs
}

func (r arimaReference) order() baseline.ARIMAOrder {
	o := r.Order
	return baseline.ARIMAOrder{P: o[0], D: o[1], Q: o[2], SP: o[3], SD: o[4], SQ: o[5]}
}

// coef returns the model's coefficients in R's order and names.
func coef(md baseline.ARIMAModel) []float64 {
	out := append(append(append(append([]float64(nil), md.AR...), md.MA...), md.SAR...), md.SMA...)
	if md.Constant {
		out = append(out, md.Drift())
	}
	return out
}

// TestSeasonalStrengthReference checks the seasonal strength of the STL
// decomposition against forecast:::seas.heuristic, which nsdiffs
// compares with 0.64.
func TestSeasonalStrengthReference(t *testing.T) {
	for _, r := range arimaReferences(t) {
		if r.Period < 2 {
			continue
		}
		if got := baseline.SeasonalStrength(r.Values, r.Period); math.Abs(got-r.SeasonalStrength) > 1e-9 {
			t.Errorf("%s: seasonal strength %.12g, R %.12g", r.Name, got, r.SeasonalStrength)
		}
	}
}

// TestKPSSReference checks the KPSS statistic against urca::ur.kpss
// (type "mu", the lags of forecast::ndiffs) and the differences chosen
// against forecast::ndiffs.
func TestKPSSReference(t *testing.T) {
	for _, r := range arimaReferences(t) {
		if got := baseline.KPSS(r.Values, r.KPSSLags); math.Abs(got-r.KPSS) > 1e-10*r.KPSS {
			t.Errorf("%s: KPSS = %.15g, R %.15g", r.Name, got, r.KPSS)
		}
		if got := baseline.NDiffs(r.Values); got != r.NDiffs {
			t.Errorf("%s: NDiffs = %d, R %d", r.Name, got, r.NDiffs)
		}
	}
}

// TestARIMAFitReference fits each series with the order R chose and
// compares the coefficients, the log-likelihood and the forecasts with
// R's. Both maximise nearly the same likelihood (R's prior for the
// differenced states has variance 1e6, not infinite: log AirPassengers's
// log-likelihood differs by 0.003 at equal coefficients) with the same
// quasi-Newton method, but the optimisers stop at slightly different
// points where the likelihood is flat: co2's six-parameter seasonal model
// differs most, by 0.004 in a coefficient and 0.002 in the
// log-likelihood, R's being the higher.
func TestARIMAFitReference(t *testing.T) {
	for _, r := range arimaReferences(t) {
		md, err := baseline.FitARIMA(r.Values, r.Period, r.order(), r.Constant)
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		if got := coef(md); !near(got, r.Coef, 0.005) {
			t.Errorf("%s: coefficients %v, R %v (%v)", r.Name, got, r.Coef, r.CoefNames)
		}
		if math.Abs(md.LogLik-r.LogLik) > 0.005 || math.Abs(md.AICc-r.AICc) > 0.01 {
			t.Errorf("%s: log-likelihood %v AICc %v, R %v and %v", r.Name, md.LogLik, md.AICc, r.LogLik, r.AICc)
		}
		f := &baseline.ARIMA{Season: r.Period, Models: []baseline.ARIMAModel{md}}
		m := series.Matrix{T: len(r.Values), N: 1, Values: r.Values}
		got := forecast(f, m, m.T, len(r.Forecast))
		tol := 0.002 * stddev(r.Values)
		for k, want := range r.Forecast {
			if math.Abs(got[k][0]-want) > tol {
				t.Errorf("%s: step %d forecast %v, R %v (tolerance %.3g)", r.Name, k+1, got[k][0], want, tol)
				break
			}
		}
	}
}

// TestAutoARIMAReference checks the orders and constant AutoARIMA chooses
// against R's auto.arima.
func TestAutoARIMAReference(t *testing.T) {
	for _, r := range arimaReferences(t) {
		md, err := baseline.AutoARIMA(r.Values, r.Period)
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		if md.Order != r.order() || md.Constant != r.Constant {
			t.Errorf("%s: chose %s constant %v, R %s constant %v", r.Name, md.Order.String(r.Period), md.Constant,
				r.order().String(r.Period), r.Constant)
		}
	}
}

// TestARIMAExactLikelihood checks the Kalman filter's likelihood of an
// AR(1) with phi 0.5 against its closed form: the first value has
// variance s2/(1-phi^2), each later one the innovation variance s2 about
// phi times its predecessor, so with s2 concentrated out the objective is
// 0.5*(log(s2) + log(1/(1-phi^2))/n) with
// s2 = ((1-phi^2) y0^2 + sum (y_t - phi y_t-1)^2)/n.
func TestARIMAExactLikelihood(t *testing.T) {
	y := []float64{1, -0.5, 2, 0.25, 1.5, -1}
	md := baseline.ARIMAModel{Order: baseline.ARIMAOrder{P: 1}, Period: 1, AR: []float64{0.5}}
	phi := 0.5
	ssq := (1 - phi*phi) * y[0] * y[0]
	for i := 1; i < len(y); i++ {
		e := y[i] - phi*y[i-1]
		ssq += e * e
	}
	n := float64(len(y))
	s2 := ssq / n
	want := -0.5 * (n*math.Log(2*math.Pi*s2) + math.Log(1/(1-phi*phi)) + n)
	if got := baseline.ARIMALogLik(md, y); math.Abs(got-want) > 1e-12 {
		t.Errorf("log-likelihood %v, want %v", got, want)
	}
}

// TestARIMAForecastByHand checks the state space mean of an
// ARIMA(1,1,0) with drift: with w the differences, mean 0.5 and phi 0.8,
// the forecast of the next difference is 0.5 + 0.8*(w_last - 0.5), the
// next 0.5 + 0.64*(w_last - 0.5), and the levels add them to the last
// value. The last difference is 4 - 1 = 3: steps 4 + 0.5 + 0.8*2.5 = 6.5
// and 6.5 + 0.5 + 0.64*2.5 = 8.6.
func TestARIMAForecastByHand(t *testing.T) {
	md := baseline.ARIMAModel{Order: baseline.ARIMAOrder{P: 1, D: 1}, Period: 1, AR: []float64{0.8}, Constant: true, Mean: 0.5}
	f := &baseline.ARIMA{Season: 1, Models: []baseline.ARIMAModel{md}}
	m := series.Matrix{T: 5, N: 1, Values: []float64{0, 2, 1, 4, math.NaN()}}
	got := forecast(f, m, 4, 2)
	if !near(got[0], []float64{6.5}, 1e-12) || !near(got[1], []float64{8.6}, 1e-12) {
		t.Errorf("forecasts %v, want [[6.5] [8.6]]", got)
	}
}

// TestARIMAJSON checks that a fitted arima survives a JSON round trip,
// as the GAT stores its anchor, with the same forecasts.
func TestARIMAJSON(t *testing.T) {
	m := seasonal(60, 2, 4, 0.2, 3)
	train, _ := split(t, m, 1, 0.8)
	f, err := baseline.FitForecaster(baseline.KindARIMA, m, train, baseline.Options{Window: 1, Season: 4})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back baseline.ARIMA
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	want, got := forecast(f, m, 50, 6), forecast(&back, m, 50, 6)
	for k := range want {
		if !slices.Equal(got[k], want[k]) {
			t.Errorf("step %d after the round trip %v, before %v", k, got[k], want[k])
		}
	}
}

// TestARIMAShortSeries checks that series too short for any candidate's
// AICc still get a model, one that JSON can store and whose forecasts are
// finite: the evaluate ladder fits arima on every panel it scores.
func TestARIMAShortSeries(t *testing.T) {
	for _, y := range [][]float64{{1, 3}, {1, 3, 2}, {1, 3, 2, 5}, {2, 4, 6, 8, 10, 12}} {
		md, err := baseline.AutoARIMA(y, 1)
		if err != nil {
			t.Fatalf("%v: %v", y, err)
		}
		f := &baseline.ARIMA{Season: 1, Models: []baseline.ARIMAModel{md}}
		if _, err := json.Marshal(f); err != nil {
			t.Errorf("%v: model %+v does not encode: %v", y, md, err)
		}
		got := forecast(f, series.Matrix{T: len(y), N: 1, Values: y}, len(y), 3)
		for k := range got {
			if math.IsNaN(got[k][0]) || math.IsInf(got[k][0], 0) {
				t.Errorf("%v: step %d forecast %v", y, k+1, got[k][0])
			}
		}
	}
}

// stddev is the sample standard deviation of x.
func stddev(x []float64) float64 {
	var s, ss float64
	for _, v := range x {
		s += v
	}
	mu := s / float64(len(x))
	for _, v := range x {
		ss += (v - mu) * (v - mu)
	}
	return math.Sqrt(ss / float64(len(x)-1))
}
