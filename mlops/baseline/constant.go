package baseline

import (
	"slices"

	"github.com/mallard/mallard/mlops/series"
)

// Constant predicts for every row the mean of each entity's training rows.
type Constant struct {
	// Mean is the prediction for each entity.
	Mean []float64
}

// FitConstant returns the Constant baseline for the training samples train
// of m. The training rows are rows 0 to the largest target in train, which
// for the samples of series.Split is every row before the split, including
// the first window rows that are never a target.
func FitConstant(m series.Matrix, window int, train []int) (*Constant, error) {
	if err := checkTraining(m, window, train); err != nil {
		return nil, err
	}
	rows := slices.Max(train) + 1
	mean := make([]float64, m.N)
	for t := range rows {
		for n, v := range m.Row(t) {
			mean[n] += v
		}
	}
	for n := range mean {
		mean[n] /= float64(rows)
	}
	return &Constant{Mean: mean}, nil
}

// Name returns "constant".
func (c *Constant) Name() string { return string(KindConstant) }

// Predict writes each entity's training mean into dst; it does not read m's
// values.
func (c *Constant) Predict(m series.Matrix, t int, dst []float64) {
	checkDst(dst, m.N)
	copy(dst, c.Mean)
}

// Forecast writes each entity's training mean into every row of dst; it
// does not read m's values.
func (c *Constant) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 0, dst)
	for _, row := range dst {
		copy(row, c.Mean)
	}
}
