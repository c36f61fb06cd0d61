package baseline

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// Joinable reports whether Join joins forecasters of kind: those fitted
// entity by entity, each on its own column alone (ets, theta, arima), so
// that fits of blocks of a matrix's entities join into the fit of the
// whole matrix exactly.
func Joinable(kind Kind) bool {
	return kind == KindETS || kind == KindTheta || kind == KindARIMA
}

// Join returns the forecaster of a matrix whose entities are those of the
// parts side by side, in order, each part fitted by FitForecaster with
// one kind and one set of options on its entities' columns. The kind must
// be Joinable.
func Join(parts []Forecaster) (Forecaster, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("baseline: join no forecasters")
	}
	kind := Kind(parts[0].Name())
	for _, p := range parts {
		if Kind(p.Name()) != kind {
			return nil, fmt.Errorf("baseline: join %s with %s", kind, p.Name())
		}
	}
	switch kind {
	case KindETS:
		return joinETS(parts), nil
	case KindTheta:
		return joinTheta(parts), nil
	case KindARIMA:
		whole := &ARIMA{Season: parts[0].(*ARIMA).Season}
		for _, p := range parts {
			whole.Models = append(whole.Models, p.(*ARIMA).Models...)
		}
		return whole, nil
	}
	return nil, fmt.Errorf("baseline: %s fits are not joinable", kind)
}

func joinETS(parts []Forecaster) *ETS {
	whole := &ETS{Season: parts[0].(*ETS).Season}
	for _, f := range parts {
		p := f.(*ETS)
		whole.Params = append(whole.Params, p.Params...)
		whole.Init = append(whole.Init, p.Init...)
		whole.Forms = append(whole.Forms, p.Forms...)
		whole.AICc = append(whole.AICc, p.AICc...)
	}
	return whole
}

func joinTheta(parts []Forecaster) *Theta {
	first := parts[0].(*Theta)
	n := 0
	for _, f := range parts {
		n += len(f.(*Theta).Alpha)
	}
	whole := &Theta{Season: first.Season, Seasonal: series.Matrix{T: first.Season, N: n, Values: make([]float64, 0, first.Season*n)},
		Level0: make([]float64, 0, n), Multiplicative: make([]bool, 0, n)}
	for j := range first.Season {
		for _, f := range parts {
			p := f.(*Theta)
			whole.Seasonal.Values = append(whole.Seasonal.Values, p.Seasonal.Values[j*p.Seasonal.N:(j+1)*p.Seasonal.N]...)
		}
	}
	for _, f := range parts {
		p := f.(*Theta)
		whole.Alpha = append(whole.Alpha, p.Alpha...)
		whole.Drift = append(whole.Drift, p.Drift...)
		whole.Level0 = append(whole.Level0, p.Level0...)
		whole.Multiplicative = append(whole.Multiplicative, p.Multiplicative...)
	}
	return whole
}
