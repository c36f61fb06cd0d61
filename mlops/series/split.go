package series

import (
	"fmt"
	"math"
)

// Samples returns the target rows of every sample of m for the window,
// window..m.T-1 in order: the sample with target t predicts row t from rows
// t-window..t-1. Samples returns nil when window < 1 or window >= m.T.
func Samples(m Matrix, window int) []int {
	if window < 1 || window >= m.T {
		return nil
	}
	return rowRange(window, m.T)
}

// Split divides the samples of m chronologically. The first
// floor(trainFraction*m.T) rows are training rows; a sample is a training
// sample if its target row is a training row and a test sample otherwise.
// Both lists are in increasing order and together they are Samples(m, window).
//
// A test sample's window may reach back into training rows: the first test
// sample predicts the first test row from the last window training rows.
// No training sample ever reads a test row.
//
// The product trainFraction*m.T is floored after forgiving a rounding error
// below 1e-9, so a fraction of 0.29 of 100 rows gives 29 training rows even
// though 0.29*100 is 28.999999999999996 in floating point.
//
// Split returns an error wrapping ErrShape, ErrWindow, ErrTooShort,
// ErrFraction or ErrEmptySplit when m is malformed, window < 1,
// m.T < window+2, trainFraction is not in (0, 1), or either set would be
// empty.
func Split(m Matrix, window int, trainFraction float64) (train, test []int, err error) {
	if err := checkShape(m, window); err != nil {
		return nil, nil, err
	}
	if m.T < window+2 {
		return nil, nil, fmt.Errorf("%w: %d rows, window %d needs at least %d", ErrTooShort, m.T, window, window+2)
	}
	if !(trainFraction > 0 && trainFraction < 1) {
		return nil, nil, fmt.Errorf("%w: %v", ErrFraction, trainFraction)
	}
	split := splitRow(m.T, trainFraction)
	if split <= window {
		return nil, nil, fmt.Errorf("%w: %d training rows of %d leave no training sample for window %d",
			ErrEmptySplit, split, m.T, window)
	}
	if split >= m.T {
		return nil, nil, fmt.Errorf("%w: fraction %v of %d rows leaves no test row", ErrEmptySplit, trainFraction, m.T)
	}
	return rowRange(window, split), rowRange(split, m.T), nil
}

// CheckSamples returns an error wrapping ErrShape, ErrWindow or
// ErrSampleRange unless m is well formed, window >= 1 and every target row
// in samples lies in window..m.T-1.
func CheckSamples(m Matrix, window int, samples []int) error {
	if err := checkShape(m, window); err != nil {
		return err
	}
	for _, t := range samples {
		if t < window || t >= m.T {
			return fmt.Errorf("%w: target row %d not in %d..%d", ErrSampleRange, t, window, m.T-1)
		}
	}
	return nil
}

// checkShape returns the error for a malformed m or a window below 1.
func checkShape(m Matrix, window int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if window < 1 {
		return fmt.Errorf("%w: got %d", ErrWindow, window)
	}
	return nil
}

// splitRow returns the number of training rows, floor(f*rows) with a
// product within 1e-9 of an integer taken as that integer.
func splitRow(rows int, f float64) int {
	x := f * float64(rows)
	if r := math.Round(x); math.Abs(x-r) <= 1e-9*math.Max(1, r) {
		return int(r)
	}
	return int(math.Floor(x))
}

// rowRange returns lo, lo+1, ..., hi-1.
func rowRange(lo, hi int) []int {
	rows := make([]int, 0, hi-lo)
	for t := lo; t < hi; t++ {
		rows = append(rows, t)
	}
	return rows
}
