package gat

import (
	"fmt"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// Metrics are one method's mean squared errors on the training and test
// samples, in the scale the model was trained on and, when an inverse
// transform is given, in original units.
type Metrics struct {
	Method           string   `json:"method"`
	TrainMSE         float64  `json:"train_mse"`
	TestMSE          float64  `json:"test_mse"`
	TrainMSEOriginal *float64 `json:"train_mse_original,omitempty"`
	TestMSEOriginal  *float64 `json:"test_mse_original,omitempty"`
}

// Invert maps entity i's value back to original units.
type Invert func(i int, v float64) float64

// Evaluate scores the model and the baselines (OLS, constant, last value,
// fitted on the same training samples) on the model's chronological split
// of m. invert, if not nil, also gives the errors in original units.
func Evaluate(model *Model, m series.Matrix, invert Invert) ([]Metrics, error) {
	cfg := model.Config
	train, test, err := series.Split(m, cfg.Window, cfg.TrainFraction)
	if err != nil {
		return nil, err
	}
	net, err := model.net()
	if err != nil {
		return nil, err
	}
	s := newSampler(m, cfg.Window, cfg.Neighbors)
	names := []string{"gat"}
	predictors := []func(series.Matrix, int, []float64){func(_ series.Matrix, t int, dst []float64) {
		pred, _ := s.predict(net, t)
		for i := range dst {
			dst[i] = pred.At(i, 0)
		}
	}}
	for _, kind := range []baseline.Kind{baseline.KindOLS, baseline.KindConstant, baseline.KindLastValue} {
		b, err := baseline.Fit(kind, m, cfg.Window, train)
		if err != nil {
			return nil, fmt.Errorf("fit baseline %s: %w", kind, err)
		}
		names, predictors = append(names, string(kind)), append(predictors, b.Predict)
	}
	out := make([]Metrics, len(names))
	for k, p := range predictors {
		out[k] = Metrics{Method: names[k], TrainMSE: mse(p, m, train, nil), TestMSE: mse(p, m, test, nil)}
		if invert != nil {
			tr, te := mse(p, m, train, invert), mse(p, m, test, invert)
			out[k].TrainMSEOriginal, out[k].TestMSEOriginal = &tr, &te
		}
	}
	return out, nil
}

// mse is the mean squared error of predict over samples, in original units
// when invert is set.
func mse(predict func(series.Matrix, int, []float64), m series.Matrix, samples []int, invert Invert) float64 {
	pred := make([]float64, m.N)
	sum := 0.0
	for _, t := range samples {
		predict(m, t, pred)
		for i := range m.N {
			y, q := m.At(t, i), pred[i]
			if invert != nil {
				y, q = invert(i, y), invert(i, q)
			}
			sum += (q - y) * (q - y)
		}
	}
	return sum / float64(len(samples)*m.N)
}
