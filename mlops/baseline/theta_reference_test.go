package baseline_test

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// thetaReference is one line of testdata/theta_reference.csv, written by
// testdata/theta_reference.R from R's forecast::thetaf.
type thetaReference struct {
	name                 string
	season, h            int
	seasonal             bool
	alpha, level0, drift float64
	series, forecast     []float64
}

func readThetaReference(t *testing.T) []thetaReference {
	t.Helper()
	f, err := os.Open("testdata/theta_reference.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	nums := func(s string) []float64 {
		var out []float64
		for _, f := range strings.Fields(s) {
			out = append(out, num(f))
		}
		return out
	}
	var out []thetaReference
	for _, r := range recs[1:] {
		out = append(out, thetaReference{
			name: r[0], season: int(num(r[1])), h: int(num(r[3])), seasonal: r[4] == "1",
			alpha: num(r[5]), level0: num(r[6]), drift: num(r[7]),
			series: nums(r[8]), forecast: nums(r[9]),
		})
	}
	return out
}

// TestThetaReference fits Theta on each series of R's datasets in
// testdata/theta_reference.csv with its frequency as the season and
// compares with forecast::thetaf: the seasonality decision exactly, the
// drift (half the slope of the adjusted series, no search involved) to
// 1e-6 relative, alpha to 1e-3, the initial level to 1e-3 and the h-step
// forecasts to 1e-4 relative, since ses() finds its optimum by
// Nelder-Mead and Theta by a grid and golden-section search. Where alpha
// is at its bound 0.9999 the initial level weighs on the first error
// only, (1-alpha)^t on the later ones, so neither search pins it down
// (lynx: 269.0, y(0), against thetaf's 290.3) and it is not compared;
// the forecasts do not depend on it.
func TestThetaReference(t *testing.T) {
	for _, ref := range readThetaReference(t) {
		t.Run(ref.name, func(t *testing.T) {
			n := len(ref.series)
			m := series.Matrix{T: n, N: 1, Values: ref.series}
			train := make([]int, n-1)
			for i := range train {
				train[i] = i + 1
			}
			f, err := baseline.FitForecaster(baseline.KindTheta, m, train, baseline.Options{Window: 1, Season: ref.season})
			if err != nil {
				t.Fatal(err)
			}
			th := f.(*baseline.Theta)
			seasonal := th.Seasonal.Values[0] != 0
			if seasonal != ref.seasonal || th.Multiplicative[0] != ref.seasonal {
				t.Errorf("seasonal %v multiplicative %v, thetaf %v", seasonal, th.Multiplicative[0], ref.seasonal)
			}
			if !relNear(th.Drift[0], ref.drift, 1e-6) {
				t.Errorf("drift %v, thetaf %v", th.Drift[0], ref.drift)
			}
			if math.Abs(th.Alpha[0]-ref.alpha) > 1e-3 || (ref.alpha < 0.99 && !relNear(th.Level0[0], ref.level0, 1e-3)) {
				t.Errorf("alpha %v level0 %v, thetaf %v %v", th.Alpha[0], th.Level0[0], ref.alpha, ref.level0)
			}
			got := baseline.Rows(ref.h, 1)
			th.Forecast(m, n, got)
			for k, want := range ref.forecast {
				if !relNear(got[k][0], want, 1e-4) {
					t.Errorf("step %d = %v, thetaf %v", k+1, got[k][0], want)
				}
			}
		})
	}
}

// relNear reports whether got is within tol of want, relative to |want|
// (absolute where |want| < 1).
func relNear(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}
