// Package series turns a wide Time x Entity matrix into the windowed data set
// a forecaster is trained on: a sample predicts one row of the matrix for
// every entity from the window of rows before it. It provides the
// chronological train/test split, each entity's window as node features, and
// the correlation graph between entities that a graph attention network
// reads as its edges. Nothing here knows SQL.
package series

import (
	"errors"
	"fmt"
)

// Errors reported by Matrix.Validate, Split and CheckSamples. They are
// wrapped with the numbers involved; test for them with errors.Is.
var (
	// ErrShape reports a Matrix whose Values do not hold exactly T*N values.
	ErrShape = errors.New("series: values do not fill the matrix")
	// ErrWindow reports a window shorter than one row.
	ErrWindow = errors.New("series: window must be at least 1")
	// ErrTooShort reports a matrix with too few rows to give both a
	// training and a test sample for the window.
	ErrTooShort = errors.New("series: too few rows for the window")
	// ErrFraction reports a training fraction outside the open interval (0, 1).
	ErrFraction = errors.New("series: training fraction outside (0, 1)")
	// ErrEmptySplit reports a split that leaves the training or the test set
	// without samples.
	ErrEmptySplit = errors.New("series: empty training or test set")
	// ErrSampleRange reports a sample whose target row has no full window
	// before it or lies past the last row.
	ErrSampleRange = errors.New("series: sample target row out of range")
)

// Matrix is a dense T x N table of values stored row-major: row t holds the
// value of every entity at time t, so the value of entity n at time t is
// Values[t*N+n]. Rows are in chronological order.
type Matrix struct {
	T, N   int
	Values []float64
}

// At returns the value of entity n at time t. It panics if t or n is out of
// range.
func (m Matrix) At(t, n int) float64 {
	if uint(t) >= uint(m.T) || uint(n) >= uint(m.N) {
		panic(fmt.Sprintf("series: index (%d, %d) out of range for %d x %d matrix", t, n, m.T, m.N))
	}
	return m.Values[t*m.N+n]
}

// Row returns the values of every entity at time t. The slice shares
// storage with m.Values. Row panics if t is out of range.
func (m Matrix) Row(t int) []float64 {
	if uint(t) >= uint(m.T) {
		panic(fmt.Sprintf("series: row %d out of range for %d rows", t, m.T))
	}
	return m.Values[t*m.N : (t+1)*m.N : (t+1)*m.N]
}

// Validate returns an error wrapping ErrShape unless T and N are
// non-negative and Values holds exactly T*N values.
func (m Matrix) Validate() error {
	if m.T < 0 || m.N < 0 || len(m.Values) != m.T*m.N {
		return fmt.Errorf("%w: %d values for %d x %d", ErrShape, len(m.Values), m.T, m.N)
	}
	return nil
}

// checkWindow panics unless rows t-window..t-1 exist in m, which is what a
// sample predicting row t reads. t may be m.T, the first row after the data.
func checkWindow(m Matrix, t, window int) {
	if window < 1 || t < window || t > m.T {
		panic(fmt.Sprintf("series: window of %d rows before row %d out of range for %d rows", window, t, m.T))
	}
}
