package baseline

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// ARDiff is an autoregression on first differences shared by all entities.
// With d(t) = m.At(t, n) - m.At(t-1, n) and p = len(Weights), it predicts
// entity n at time t as
//
//	m.At(t-1, n) + Intercept + sum_k Weights[k] * d(t-p+k)
//
// so, as in OLS, the last weight multiplies the most recent difference.
// A prediction of row t reads rows t-p-1..t-1.
type ARDiff struct {
	Intercept float64
	Weights   []float64
	// Rank is the numerical rank of the design matrix, p+1 unless the
	// lagged differences (with the intercept) are collinear.
	Rank int
}

// FitARDiff fits an ARDiff of order p by least squares over every entity
// of every training sample t: one row per (sample, entity) holding an
// intercept 1 and the differences d(t-p)..d(t-1), with d(t) to match. The
// solution is OLS's: the same blocked triangular reduction and truncated
// singular value decomposition, so collinear differences give the
// coefficients of least norm and Rank tells the rank found.
//
// Samples are checked as series.CheckSamples does for window p. A sample
// t = p has no difference d(t-p) and is skipped; FitARDiff returns an
// error wrapping ErrNoTraining if no sample remains, and one wrapping
// ErrNonFinite if the rows it reads hold NaN or infinite values.
func FitARDiff(m series.Matrix, p int, train []int) (*ARDiff, error) {
	if err := checkTraining(m, p, train); err != nil {
		return nil, err
	}
	tri := newTriangle(p + 2)
	used := 0
	for _, t := range train {
		if t < p+1 {
			continue
		}
		used++
		for n := range m.N {
			row := tri.next()
			row[0] = 1
			for k := range p {
				row[1+k] = diff(m, t-p+k, n)
			}
			row[p+1] = diff(m, t, n)
		}
	}
	if used == 0 {
		return nil, fmt.Errorf("%w: ar_diff of order %d needs a sample after row %d", ErrNoTraining, p, p)
	}
	coef, rank, err := solve(tri.r())
	if err != nil {
		return nil, fmt.Errorf("fit ar_diff: %w", err)
	}
	return &ARDiff{Intercept: coef[0], Weights: coef[1:], Rank: rank}, nil
}

// diff returns the first difference of entity n at time t.
func diff(m series.Matrix, t, n int) float64 {
	return m.At(t, n) - m.At(t-1, n)
}

// Name returns "ar_diff".
func (a *ARDiff) Name() string { return string(KindARDiff) }

// Predict writes the model's prediction of row t into dst. It panics
// unless p+1 <= t <= m.T.
func (a *ARDiff) Predict(m series.Matrix, t int, dst []float64) {
	checkDst(dst, m.N)
	p := len(a.Weights)
	if t < p+1 || t > m.T {
		panic(fmt.Sprintf("baseline: %d rows before row %d out of range for %d rows", p+1, t, m.T))
	}
	for n := range dst {
		v := m.At(t-1, n) + a.Intercept
		for k, w := range a.Weights {
			v += w * diff(m, t-p+k, n)
		}
		dst[n] = v
	}
}

// Forecast forecasts recursively, feeding each prediction back as an
// observed row; it reads the p+1 rows before origin.
func (a *ARDiff) Forecast(m series.Matrix, origin int, dst [][]float64) {
	Recursive(a, len(a.Weights)+1).Forecast(m, origin, dst)
}
