// Package scale turns raw feature values into the scaled values a model is
// trained on and back: an optional signed logarithm (SignedLog) followed by
// an optional z-score standardisation whose mean and standard deviation come
// from the training rows, either per column or pooled over all columns.
package scale

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Method is how a Scaler transforms values.
type Method string

// The scaling methods.
const (
	// SignedLogZScore applies SignedLog and then standardises.
	SignedLogZScore Method = "signed_log_zscore"
	// ZScore standardises the raw values.
	ZScore Method = "zscore"
	// SignedLogOnly applies SignedLog and nothing else. It is spelled
	// "signed_log"; the Go name differs from the spelling only because the
	// function SignedLog already holds that name.
	SignedLogOnly Method = "signed_log"
)

// ParseMethod returns the Method spelled s, ignoring case, and whether s
// names one.
func ParseMethod(s string) (Method, bool) {
	m := Method(strings.ToLower(s))
	if !m.valid() {
		return "", false
	}
	return m, true
}

// valid reports whether m is one of the Method constants.
func (m Method) valid() bool {
	return m == SignedLogZScore || m == ZScore || m == SignedLogOnly
}

// Transforms reports whether m applies SignedLog.
func (m Method) Transforms() bool {
	return m == SignedLogZScore || m == SignedLogOnly
}

// Standardizes reports whether m subtracts a mean and divides by a standard
// deviation.
func (m Method) Standardizes() bool {
	return m == SignedLogZScore || m == ZScore
}

// Stats is where a standardising Scaler takes its mean and standard
// deviation from.
type Stats string

// The kinds of statistics.
const (
	// Global pools the training values of every column into one mean and
	// one standard deviation, which keeps the columns' relative sizes.
	Global Stats = "global"
	// PerColumn gives each column its own mean and standard deviation.
	PerColumn Stats = "per_column"
)

// ParseStats returns the Stats spelled s, ignoring case, and whether s names
// one.
func ParseStats(s string) (Stats, bool) {
	st := Stats(strings.ToLower(s))
	if !st.valid() {
		return "", false
	}
	return st, true
}

// valid reports whether s is one of the Stats constants.
func (s Stats) valid() bool {
	return s == Global || s == PerColumn
}

// Scaler scales the values of a fixed list of columns, identified by their
// index in Columns. A Scaler is a plain value: it can be stored and compared,
// and it is safe for concurrent use.
type Scaler struct {
	Method  Method
	Stats   Stats
	Columns []string
	// Mean and Std hold one entry per column: the mean and population
	// standard deviation of the column's training values after SignedLog if
	// Method transforms. With Global statistics every entry is the same;
	// when Method does not standardise they are 0 and 1.
	Mean, Std []float64
}

// Fit returns the Scaler for columns given moments[i], the Moments of the
// finite training values of column i, already passed through SignedLog if
// method transforms. Global statistics merge the moments of all columns.
//
// When method does not standardise, moments is not consulted and may be
// nil. Otherwise Fit returns a *NoDataError if a column (or, for Global, the
// pooled set) has no values, and a *ZeroStdError if its standard deviation
// is zero or not finite, since dividing by it would lose every value. Any
// other error means a programming mistake: method or stats is not one of
// the constants (compared exactly; ParseMethod and ParseStats normalise
// user input), or moments does not hold one entry per column.
func Fit(method Method, stats Stats, columns []string, moments []Moments) (Scaler, error) {
	if !method.valid() {
		return Scaler{}, fmt.Errorf("unknown scaling method %q", method)
	}
	if !stats.valid() {
		return Scaler{}, fmt.Errorf("unknown scaling statistics %q", stats)
	}
	s := Scaler{Method: method, Stats: stats, Columns: slices.Clone(columns)}
	if !method.Standardizes() {
		s.Mean, s.Std = filled(len(columns), 0), filled(len(columns), 1)
		return s, nil
	}
	if len(moments) != len(columns) {
		return Scaler{}, fmt.Errorf("scaling %d columns with moments for %d", len(columns), len(moments))
	}
	var err error
	if stats == Global {
		err = s.fitGlobal(moments)
	} else {
		err = s.fitPerColumn(moments)
	}
	if err != nil {
		return Scaler{}, err
	}
	return s, nil
}

// fitGlobal sets every column's Mean and Std from the merged moments.
func (s *Scaler) fitGlobal(moments []Moments) error {
	var all Moments
	for _, m := range moments {
		all = all.Merge(m)
	}
	if err := s.check("", all); err != nil {
		return err
	}
	s.Mean, s.Std = filled(len(moments), all.Mean), filled(len(moments), all.Std())
	return nil
}

// fitPerColumn sets each column's Mean and Std from its own moments.
func (s *Scaler) fitPerColumn(moments []Moments) error {
	s.Mean, s.Std = make([]float64, len(moments)), make([]float64, len(moments))
	for i, m := range moments {
		if err := s.check(s.Columns[i], m); err != nil {
			return err
		}
		s.Mean[i], s.Std[i] = m.Mean, m.Std()
	}
	return nil
}

// check returns the error that keeps m from standardising column (the
// pooled set when column is ""), or nil if there is none.
func (s *Scaler) check(column string, m Moments) error {
	if m.N == 0 {
		return &NoDataError{Column: column}
	}
	if std := m.Std(); std == 0 || !Finite(std) {
		v := m.Mean
		if s.Method.Transforms() {
			v = SignedExp(v)
		}
		return &ZeroStdError{Column: column, Value: v, Std: std}
	}
	return nil
}

// filled returns a slice of n copies of v.
func filled(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// Apply returns x scaled as column i's training values were: SignedLog if
// the Method transforms, then (t-Mean[i])/Std[i] if it standardises. NaN
// stays NaN. Apply panics if i is out of range for a standardising Scaler.
func (s Scaler) Apply(i int, x float64) float64 {
	if s.Method.Transforms() {
		x = SignedLog(x)
	}
	if s.Method.Standardizes() {
		x = (x - s.Mean[i]) / s.Std[i]
	}
	return x
}

// Invert is the inverse of Apply: it returns y*Std[i]+Mean[i] if the Method
// standardises, passed through SignedExp if it transforms, so that
// Invert(i, Apply(i, x)) == x up to rounding.
func (s Scaler) Invert(i int, y float64) float64 {
	if s.Method.Standardizes() {
		y = y*s.Std[i] + s.Mean[i]
	}
	if s.Method.Transforms() {
		y = SignedExp(y)
	}
	return y
}

// ApplySlice sets dst[j] to Apply(i, src[j]) for every j in src, giving the
// same values bit for bit. dst must be at least as long as src and may be
// src itself.
func (s Scaler) ApplySlice(i int, dst, src []float64) {
	dst = dst[:len(src)]
	switch {
	case s.Method.Transforms() && s.Method.Standardizes():
		mean, std := s.Mean[i], s.Std[i]
		for j, x := range src {
			dst[j] = (SignedLog(x) - mean) / std
		}
	case s.Method.Standardizes():
		mean, std := s.Mean[i], s.Std[i]
		for j, x := range src {
			dst[j] = (x - mean) / std
		}
	case s.Method.Transforms():
		for j, x := range src {
			dst[j] = SignedLog(x)
		}
	default:
		copy(dst, src)
	}
}

// InvertSlice sets dst[j] to Invert(i, src[j]) for every j in src, giving
// the same values bit for bit. dst must be at least as long as src and may
// be src itself.
func (s Scaler) InvertSlice(i int, dst, src []float64) {
	dst = dst[:len(src)]
	switch {
	case s.Method.Transforms() && s.Method.Standardizes():
		mean, std := s.Mean[i], s.Std[i]
		for j, y := range src {
			dst[j] = SignedExp(y*std + mean)
		}
	case s.Method.Standardizes():
		mean, std := s.Mean[i], s.Std[i]
		for j, y := range src {
			dst[j] = y*std + mean
		}
	case s.Method.Transforms():
		for j, y := range src {
			dst[j] = SignedExp(y)
		}
	default:
		copy(dst, src)
	}
}

// NoDataError reports that a column, or the pooled set of all columns, had
// no finite training values to take a mean and standard deviation from.
type NoDataError struct {
	// Column is the column's name, or "" for Global statistics.
	Column string
}

// Error describes the column without data.
func (e *NoDataError) Error() string {
	if e.Column == "" {
		return "global statistics: no training cell has a finite value"
	}
	return fmt.Sprintf("column %q has no finite values in the training rows", e.Column)
}

// ZeroStdError reports that a column, or the pooled set of all columns, had
// a standard deviation of zero (every training value equal) or one that is
// not finite (values too large to square), so standardising by it is
// impossible.
type ZeroStdError struct {
	// Column is the column's name, or "" for Global statistics.
	Column string
	// Value is the mean of the training values as a raw value (before any
	// SignedLog): the value every training value has when Std is zero.
	Value float64
	// Std is the offending standard deviation: 0, +Inf or NaN.
	Std float64
}

// Error describes the column and its constant value, or its standard
// deviation when that is not finite.
func (e *ZeroStdError) Error() string {
	v := strconv.FormatFloat(e.Value, 'g', 15, 64)
	switch {
	case e.Std != 0 && e.Column == "":
		return fmt.Sprintf("global statistics: the training cells have a non-finite standard deviation (%v)", e.Std)
	case e.Std != 0:
		return fmt.Sprintf("column %q has a non-finite standard deviation in the training rows (%v)", e.Column, e.Std)
	case e.Column == "":
		return fmt.Sprintf("global statistics: every training cell has the value %s (zero standard deviation)", v)
	}
	return fmt.Sprintf("column %q has zero standard deviation in the training rows (every value is %s)", e.Column, v)
}
