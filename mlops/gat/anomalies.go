package gat

import (
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Expected returns f's one-step forecast of every row from..m.T-1 of m
// (row t of the result is row from+t of m), each from the rows before it,
// for finding anomalies: a value outside its entity's half-width half[i]
// of its forecast is an outlier, and the forecasts of the rows after it
// read its forecast in its place, so that one spike does not make the
// return to normal look anomalous too. When the row after an outlier is
// an outlier on the same side, the data have moved rather than spiked (a
// level shift): both values are kept, and the entity's rows before them
// are read moved by the mean of the two rows' errors, so that the
// forecasts continue from the new level (a seasonal method included)
// instead of flagging every row after the shift. The move is made in the
// data's own units (see Units): a shift there is a change of level, which
// in rescaled units, a logarithm among them, would also stretch the
// season. m is not changed.
func Expected(f baseline.Forecaster, m series.Matrix, from int, half []float64, u Units) series.Matrix {
	work := series.Matrix{T: m.T, N: m.N, Values: slices.Clone(m.Values)}
	out := series.Matrix{T: m.T - from, N: m.N, Values: make([]float64, (m.T-from)*m.N)}
	dst := [][]float64{make([]float64, m.N)}
	last := make([]float64, m.N)    // the last row's error per entity where it was an outlier, else 0
	lastOwn := make([]float64, m.N) // that error in the data's own units
	for t := from; t < m.T; t++ {
		f.Forecast(work, t, dst)
		copy(out.Values[(t-from)*m.N:], dst[0])
		for i, q := range dst[0] {
			d := m.At(t, i) - q
			switch {
			case !(math.Abs(d) > half[i]):
				last[i] = 0
			case last[i] != 0 && math.Signbit(d) == math.Signbit(last[i]):
				shift := (u.own(i, m.At(t, i)) - u.own(i, q) + lastOwn[i]) / 2
				for r := range t - 1 {
					at := r*m.N + i
					work.Values[at] = u.scaled(i, u.own(i, work.Values[at])+shift)
				}
				work.Values[(t-1)*m.N+i] = m.At(t-1, i)
				last[i] = 0
			default:
				work.Values[t*m.N+i] = q
				last[i], lastOwn[i] = d, u.own(i, m.At(t, i))-u.own(i, q)
			}
		}
	}
	return out
}

// Units maps an entity's values between the units a model works in and
// the data's own (a scaler's Invert and Apply); the zero Units is the
// identity, for data used as it is.
type Units struct {
	Own, Scaled Invert
}

func (u Units) own(i int, v float64) float64 {
	if u.Own == nil {
		return v
	}
	return u.Own(i, v)
}

func (u Units) scaled(i int, v float64) float64 {
	if u.Scaled == nil {
		return v
	}
	return u.Scaled(i, v)
}

// ExpectedResiduals returns, per entity, the absolute differences between rows
// from..m.T-1 of m and expected (as Expected returns it).
func ExpectedResiduals(m, expected series.Matrix, from int) [][]float64 {
	out := make([][]float64, m.N)
	for t := from; t < m.T; t++ {
		for i := range out {
			out[i] = append(out[i], math.Abs(m.At(t, i)-expected.At(t-from, i)))
		}
	}
	return out
}

// Anomalies returns f's expected values of rows from..m.T-1 of m (as
// Expected returns them, level shifts moved in u's own units) and each entity's half-width around them beyond
// which a value is an anomaly, found without trusting any row to be
// normal:
//  1. with no row taken for an outlier, each entity's errors give a robust
//     width: its median absolute error over 0.6745 (the standard
//     deviation of normal errors) times the normal quantile of level;
//  2. Expected with those widths takes the outliers and level shifts out
//     of the forecasts, so that each leaves one or two large errors, not a
//     run of them. Every row's error then gives each entity two widths:
//     the normalised split-conformal width at level (EntityHalfWidths) and
//     Tukey's far-out fence, Q3 + 3 IQR of the errors divided by their
//     entity's median (the rule of R's forecast::tsoutliers). The larger
//     is the half-width: a value outside it lies outside the interval at
//     level and is far out, which normal errors are about 3 times in
//     10,000 (as many as 1 in 100 lie outside the interval at 0.99);
//  3. Expected runs again with those widths.
func Anomalies(f baseline.Forecaster, m series.Matrix, from int, level float64, u Units) (series.Matrix, []float64) {
	none := make([]float64, m.N)
	for i := range none {
		none[i] = math.Inf(1)
	}
	scale := entityScales(ExpectedResiduals(m, Expected(f, m, from, none, u), from))
	z := distuv.UnitNormal.Quantile((1 + level) / 2)
	robust := make([]float64, m.N)
	for i, s := range scale {
		robust[i] = z * s / 0.6745
	}
	residuals := ExpectedResiduals(m, Expected(f, m, from, robust, u), from)
	half := EntityHalfWidths([][][]float64{residuals}, level)[0]
	scale = entityScales(residuals)
	fence := farOut(residuals, scale)
	for i := range half {
		half[i] = max(half[i], fence*scale[i])
	}
	return Expected(f, m, from, half, u), half
}

// farOut is Tukey's far-out fence, Q3 + 3 IQR, of the residuals pooled
// over the entities, each divided by its entity's scale.
func farOut(residuals [][]float64, scale []float64) float64 {
	var pooled []float64
	for i, r := range residuals {
		for _, v := range r {
			pooled = append(pooled, v/scale[i])
		}
	}
	slices.Sort(pooled)
	if len(pooled) == 0 {
		return 0
	}
	q1, q3 := stat.Quantile(0.25, stat.Empirical, pooled, nil), stat.Quantile(0.75, stat.Empirical, pooled, nil)
	return q3 + 3*(q3-q1)
}
