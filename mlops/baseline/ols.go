package baseline

import (
	"errors"
	"fmt"
	"math"

	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// rcond is the relative tolerance below which OLS treats a singular value
// of the design matrix as zero. Directions that weak are fixed only by
// rounding error (exactly collinear features give singular values near
// 1e-16 of the largest), so OLS drops them instead of fitting noise.
const rcond = 1e-10

// OLS is a linear autoregression shared by all entities: it predicts entity
// n at time t as
//
//	Intercept + sum_k Weights[k] * m.At(t-window+k, n)
//
// where window = len(Weights), so the last weight multiplies the previous
// value.
type OLS struct {
	Intercept float64
	Weights   []float64
	// Rank is the numerical rank of the design matrix, window+1 unless the
	// features (with the intercept) are collinear.
	Rank int
}

// FitOLS fits an OLS model by least squares over every entity of every
// training sample: one row per (sample, entity) holding an intercept 1 and
// the entity's window, with the target row's value to match.
//
// The fit is a truncated singular value decomposition: singular values
// below 1e-10 of the largest are dropped, and of the coefficients that fit
// equally well FitOLS returns the one of least norm. Collinear features,
// as when window exceeds the true order of the series or an entity is
// constant, therefore give a unique model and Rank tells the rank found.
//
// The rows are reduced to a triangular factor in blocks (see triangle), so
// memory stays proportional to window squared however many rows there are.
// FitOLS returns an error wrapping ErrNonFinite if the training windows or
// targets hold NaN or infinite values.
func FitOLS(m series.Matrix, window int, train []int) (*OLS, error) {
	if err := checkTraining(m, window, train); err != nil {
		return nil, err
	}
	tri := newTriangle(window + 2)
	for _, t := range train {
		for n := range m.N {
			row := tri.next()
			row[0] = 1
			for k := range window {
				row[1+k] = m.At(t-window+k, n)
			}
			row[window+1] = m.At(t, n)
		}
	}
	coef, rank, err := solve(tri.r())
	if err != nil {
		return nil, fmt.Errorf("fit ols: %w", err)
	}
	return &OLS{Intercept: coef[0], Weights: coef[1:], Rank: rank}, nil
}

// solve returns the least-squares coefficients of the system whose
// augmented triangular factor is r, [X y] reduced: the first p-1 columns
// are the design, the last is the target.
func solve(r *mat.Dense) (coef []float64, rank int, err error) {
	_, p := r.Dims()
	for i := range p {
		for j := i; j < p; j++ {
			if v := r.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, ErrNonFinite
			}
		}
	}
	x := r.Slice(0, p-1, 0, p-1)
	y := r.Slice(0, p-1, p-1, p).(*mat.Dense).ColView(0)
	var svd mat.SVD
	if !svd.Factorize(x, mat.SVDThin) {
		return nil, 0, errors.New("singular value decomposition did not converge")
	}
	beta := mat.NewVecDense(p-1, nil)
	if rank = svd.Rank(rcond); rank > 0 {
		svd.SolveVecTo(beta, y, rank)
	}
	return beta.RawVector().Data, rank, nil
}

// Name returns "ols".
func (o *OLS) Name() string { return string(KindOLS) }

// Predict writes the autoregression's prediction of row t into dst.
func (o *OLS) Predict(m series.Matrix, t int, dst []float64) {
	checkDst(dst, m.N)
	window := len(o.Weights)
	if t < window || t > m.T {
		panic(fmt.Sprintf("baseline: window of %d rows before row %d out of range for %d rows", window, t, m.T))
	}
	for n := range dst {
		dst[n] = o.Intercept
	}
	for k, w := range o.Weights {
		for n, v := range m.Row(t - window + k) {
			dst[n] += w * v
		}
	}
}

// Forecast forecasts recursively, feeding each prediction back as the
// previous value of the next; it reads the window rows before origin.
func (o *OLS) Forecast(m series.Matrix, origin int, dst [][]float64) {
	Recursive(o, len(o.Weights)).Forecast(m, origin, dst)
}
