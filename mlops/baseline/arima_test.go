package baseline_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
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

func TestARIMADebug(t *testing.T) {
	for _, r := range arimaReferences(t) {
		md, err := baseline.FitARIMA(r.Values, r.Period, r.order(), r.Constant)
		auto, aerr := baseline.AutoARIMA(r.Values, r.Period)
		t.Logf("%s: kpss %v vs %v strength %.3f vs %.3f ndiffs %d vs %d", r.Name, baseline.KPSS(r.Values, r.KPSSLags), r.KPSS,
			func() float64 { if r.Period > 1 { return baseline.SeasonalStrength(r.Values, r.Period) }; return 0 }(), r.SeasonalStrength, baseline.NDiffs(r.Values), r.NDiffs)
		t.Logf("  fixed order err %v coef %v\n   R %v; aicc %v vs %v loglik %v vs %v", err, coef(md), r.Coef, md.AICc, r.AICc, md.LogLik, r.LogLik)
		t.Logf("  auto err %v %v const %v aicc %v vs R %v const %v", aerr, auto.Order, auto.Constant, auto.AICc, r.Order, r.Constant)
		_ = math.Abs
	}
}
