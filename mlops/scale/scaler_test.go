package scale_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/scale"
)

var (
	methods  = []scale.Method{scale.SignedLogZScore, scale.ZScore, scale.SignedLogOnly}
	allStats = []scale.Stats{scale.Global, scale.PerColumn}
)

// columnMoments returns the moments of each column's finite values, passed
// through SignedLog first if method transforms, as a caller of Fit builds
// them.
func columnMoments(method scale.Method, columns [][]float64) []scale.Moments {
	ms := make([]scale.Moments, len(columns))
	for i, col := range columns {
		for _, x := range col {
			if !scale.Finite(x) {
				continue
			}
			if method.Transforms() {
				x = scale.SignedLog(x)
			}
			ms[i].Add(x)
		}
	}
	return ms
}

// trainingColumns returns three columns of different sizes and scales, one
// of them with missing values.
func trainingColumns() [][]float64 {
	c := sample(3, 300, 5e4, 2e4)
	c[10], c[20], c[30] = math.NaN(), math.Inf(1), math.Inf(-1)
	return [][]float64{sample(1, 200, 0, 1), sample(2, 500, -300, 120), c}
}

// fit fits a Scaler to trainingColumns, failing t on error.
func fit(t *testing.T, method scale.Method, stats scale.Stats) scale.Scaler {
	t.Helper()
	cols := trainingColumns()
	s, err := scale.Fit(method, stats, []string{"a", "b", "c"}, columnMoments(method, cols))
	if err != nil {
		t.Fatalf("Fit(%s, %s): %v", method, stats, err)
	}
	return s
}

func TestParseMethod(t *testing.T) {
	tests := []struct {
		in     string
		want   scale.Method
		wantOK bool
	}{
		{"signed_log_zscore", scale.SignedLogZScore, true},
		{"zscore", scale.ZScore, true},
		{"signed_log", scale.SignedLogOnly, true},
		{"ZScore", scale.ZScore, true},
		{"Signed_Log", scale.SignedLogOnly, true},
		{"", "", false},
		{"minmax", "", false},
		{" zscore", "", false},
	}
	for _, tt := range tests {
		got, ok := scale.ParseMethod(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseMethod(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestParseStats(t *testing.T) {
	tests := []struct {
		in     string
		want   scale.Stats
		wantOK bool
	}{
		{"global", scale.Global, true},
		{"per_column", scale.PerColumn, true},
		{"GLOBAL", scale.Global, true},
		{"", "", false},
		{"percolumn", "", false},
	}
	for _, tt := range tests {
		got, ok := scale.ParseStats(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseStats(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestMethodKinds(t *testing.T) {
	tests := []struct {
		method                   scale.Method
		transforms, standardizes bool
	}{
		{scale.SignedLogZScore, true, true},
		{scale.ZScore, false, true},
		{scale.SignedLogOnly, true, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if got := tt.method.Transforms(); got != tt.transforms {
			t.Errorf("%q.Transforms() = %v, want %v", tt.method, got, tt.transforms)
		}
		if got := tt.method.Standardizes(); got != tt.standardizes {
			t.Errorf("%q.Standardizes() = %v, want %v", tt.method, got, tt.standardizes)
		}
	}
}

func TestFitGlobal(t *testing.T) {
	for _, method := range []scale.Method{scale.SignedLogZScore, scale.ZScore} {
		t.Run(string(method), func(t *testing.T) {
			s := fit(t, method, scale.Global)
			all := columnMoments(method, [][]float64{slices.Concat(trainingColumns()...)})[0]
			for i := range s.Columns {
				if !relClose(s.Mean[i], all.Mean, 1e-12) || !relClose(s.Std[i], all.Std(), 1e-12) {
					t.Errorf("column %d: mean %v std %v, want %v and %v", i, s.Mean[i], s.Std[i], all.Mean, all.Std())
				}
			}
		})
	}
}

func TestFitPerColumn(t *testing.T) {
	for _, method := range []scale.Method{scale.SignedLogZScore, scale.ZScore} {
		t.Run(string(method), func(t *testing.T) {
			s := fit(t, method, scale.PerColumn)
			for i, m := range columnMoments(method, trainingColumns()) {
				if s.Mean[i] != m.Mean || s.Std[i] != m.Std() {
					t.Errorf("column %d: mean %v std %v, want %v and %v", i, s.Mean[i], s.Std[i], m.Mean, m.Std())
				}
			}
		})
	}
}

func TestFitSignedLogOnly(t *testing.T) {
	for _, stats := range allStats {
		s, err := scale.Fit(scale.SignedLogOnly, stats, []string{"a", "b"}, nil)
		if err != nil {
			t.Fatalf("Fit(signed_log, %s, nil moments): %v", stats, err)
		}
		if !slices.Equal(s.Mean, []float64{0, 0}) || !slices.Equal(s.Std, []float64{1, 1}) {
			t.Errorf("%s: Mean %v Std %v, want zeros and ones", stats, s.Mean, s.Std)
		}
	}
}

func TestFitKeepsColumns(t *testing.T) {
	cols := []string{"a", "b"}
	s, err := scale.Fit(scale.ZScore, scale.PerColumn, cols, columnMoments(scale.ZScore, [][]float64{{1, 2}, {3, 5}}))
	if err != nil {
		t.Fatal(err)
	}
	cols[0] = "changed"
	if !slices.Equal(s.Columns, []string{"a", "b"}) {
		t.Errorf("Columns = %q after the caller's slice changed, want a copy", s.Columns)
	}
}

func TestApplyValues(t *testing.T) {
	e := math.E
	tests := []struct {
		name    string
		method  scale.Method
		columns [][]float64
		x, want float64
	}{
		{"zscore", scale.ZScore, [][]float64{{1, 3}}, 4, 2},
		{"zscore below", scale.ZScore, [][]float64{{1, 3}}, 0, -2},
		{"signed log zscore", scale.SignedLogZScore, [][]float64{{e, e * e * e}}, e * e, 0},
		{"signed log zscore high", scale.SignedLogZScore, [][]float64{{e, e * e * e}}, e * e * e * e, 2},
		{"signed log zscore linear", scale.SignedLogZScore, [][]float64{{-e, e}}, 0.5, 0.25},
		{"signed log", scale.SignedLogOnly, [][]float64{{}}, -e, -2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cols := make([]string, len(tt.columns))
			s, err := scale.Fit(tt.method, scale.PerColumn, cols, columnMoments(tt.method, tt.columns))
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Apply(0, tt.x); math.Abs(got-tt.want) > 1e-15*max(1, math.Abs(tt.want)) {
				t.Errorf("Apply(0, %v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

func TestFitErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name        string
		method      scale.Method
		stats       scale.Stats
		columns     [][]float64
		wantNoData  *scale.NoDataError
		wantZeroStd *scale.ZeroStdError
		wantMsg     string
	}{
		{
			name: "constant column", method: scale.ZScore, stats: scale.PerColumn,
			columns:     [][]float64{{1, 2}, {3.5, 3.5, nan, 3.5}},
			wantZeroStd: &scale.ZeroStdError{Column: "b", Value: 3.5},
			wantMsg:     `column "b" has zero standard deviation in the training rows (every value is 3.5)`,
		},
		{
			name: "constant overall", method: scale.ZScore, stats: scale.Global,
			columns:     [][]float64{{3.5}, {3.5, 3.5}},
			wantZeroStd: &scale.ZeroStdError{Value: 3.5},
			wantMsg:     "global statistics: every training cell has the value 3.5 (zero standard deviation)",
		},
		{
			name: "constant after signed log", method: scale.SignedLogZScore, stats: scale.PerColumn,
			columns:     [][]float64{{-1e6, -1e6}, {1, 2}},
			wantZeroStd: &scale.ZeroStdError{Column: "a", Value: -1e6},
			wantMsg:     `column "a" has zero standard deviation in the training rows (every value is -1000000)`,
		},
		{
			name: "std overflows", method: scale.ZScore, stats: scale.PerColumn,
			columns:     [][]float64{{1, 2}, {-1e200, 1e200}},
			wantZeroStd: &scale.ZeroStdError{Column: "b", Value: 0, Std: inf},
			wantMsg:     `column "b" has a non-finite standard deviation in the training rows (+Inf)`,
		},
		{
			name: "empty column", method: scale.ZScore, stats: scale.PerColumn,
			columns:    [][]float64{{1, 2}, {nan, inf}},
			wantNoData: &scale.NoDataError{Column: "b"},
			wantMsg:    `column "b" has no finite values in the training rows`,
		},
		{
			name: "no data at all", method: scale.SignedLogZScore, stats: scale.Global,
			columns:    [][]float64{{}, {nan}},
			wantNoData: &scale.NoDataError{},
			wantMsg:    "global statistics: no training cell has a finite value",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scale.Fit(tt.method, tt.stats, []string{"a", "b"}, columnMoments(tt.method, tt.columns))
			checkFitError(t, err, tt.wantNoData, tt.wantZeroStd)
			if err != nil && err.Error() != tt.wantMsg {
				t.Errorf("message %q, want %q", err, tt.wantMsg)
			}
		})
	}
}

// checkFitError fails t unless err is the *NoDataError or *ZeroStdError
// wanted (exactly one of them non-nil). A ZeroStdError's Value is compared
// within rounding, since it may come back through SignedExp.
func checkFitError(t *testing.T, err error, wantNoData *scale.NoDataError, wantZeroStd *scale.ZeroStdError) {
	t.Helper()
	var noData *scale.NoDataError
	var zeroStd *scale.ZeroStdError
	switch {
	case wantNoData != nil:
		if !errors.As(err, &noData) || *noData != *wantNoData {
			t.Errorf("error %#v, want %#v", err, wantNoData)
		}
	case !errors.As(err, &zeroStd):
		t.Errorf("error %#v, want %#v", err, wantZeroStd)
	case zeroStd.Column != wantZeroStd.Column || zeroStd.Std != wantZeroStd.Std ||
		math.Abs(zeroStd.Value-wantZeroStd.Value) > 1e-12*math.Abs(wantZeroStd.Value):
		t.Errorf("error %#v, want %#v", zeroStd, wantZeroStd)
	}
}

func TestFitInvalid(t *testing.T) {
	ms := columnMoments(scale.ZScore, [][]float64{{1, 2}, {3, 4}})
	tests := []struct {
		name    string
		method  scale.Method
		stats   scale.Stats
		moments []scale.Moments
	}{
		{"unknown method", "minmax", scale.Global, ms},
		{"method in upper case", "ZSCORE", scale.Global, ms},
		{"unknown stats", scale.ZScore, "pooled", ms},
		{"empty stats", scale.SignedLogOnly, "", nil},
		{"too few moments", scale.ZScore, scale.PerColumn, ms[:1]},
		{"no moments", scale.SignedLogZScore, scale.Global, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scale.Fit(tt.method, tt.stats, []string{"a", "b"}, tt.moments)
			var noData *scale.NoDataError
			var zeroStd *scale.ZeroStdError
			if err == nil || errors.As(err, &noData) || errors.As(err, &zeroStd) {
				t.Errorf("Fit error %v, want a plain error", err)
			}
		})
	}
}

// probes returns values to scale: the training values, a logarithmic grid
// far beyond them, values around ±1 and zero.
func probes() []float64 {
	xs := slices.Concat(trainingColumns()...)
	xs = append(xs, logGrid(-12, 12, 10)...)
	return append(xs, nearOne()...)
}

func TestRoundTrip(t *testing.T) {
	for _, method := range methods {
		for _, stats := range allStats {
			t.Run(string(method)+"/"+string(stats), func(t *testing.T) {
				s := fit(t, method, stats)
				for i := range s.Columns {
					checkRoundTrip(t, s, i, probes())
				}
			})
		}
	}
}

// checkRoundTrip fails t unless Invert undoes Apply on column i for every
// finite x, within 1e-9 relative to max(|x|, 1), and keeps NaN and ±Inf.
func checkRoundTrip(t *testing.T, s scale.Scaler, i int, xs []float64) {
	t.Helper()
	for _, x := range xs {
		got := s.Invert(i, s.Apply(i, x))
		if !scale.Finite(x) {
			if !same(got, x) {
				t.Errorf("column %d: Invert(Apply(%v)) = %v", i, x, got)
			}
			continue
		}
		if math.Abs(got-x) > 1e-9*max(math.Abs(x), 1) {
			t.Errorf("column %d: Invert(Apply(%v)) = %v", i, x, got)
		}
	}
}

func TestSlices(t *testing.T) {
	for _, method := range append(methods, "") {
		for _, stats := range allStats {
			t.Run(string(method)+"/"+string(stats), func(t *testing.T) {
				s := fit(t, scale.ZScore, stats)
				s.Method = method
				for i := range s.Columns {
					checkSlices(t, s, i, probes())
				}
			})
		}
	}
}

// checkSlices fails t unless ApplySlice and InvertSlice on column i give
// exactly what Apply and Invert give for each element of src, both into a
// separate dst and in place.
func checkSlices(t *testing.T, s scale.Scaler, i int, src []float64) {
	t.Helper()
	dst := make([]float64, len(src)+1)
	s.ApplySlice(i, dst, src)
	inPlace := slices.Clone(src)
	s.ApplySlice(i, inPlace, inPlace)
	for j, x := range src {
		if want := s.Apply(i, x); !same(dst[j], want) || !same(inPlace[j], want) {
			t.Fatalf("column %d: ApplySlice gives %v and in place %v for %v, Apply %v", i, dst[j], inPlace[j], x, want)
		}
	}
	s.InvertSlice(i, dst, src)
	inPlace = slices.Clone(src)
	s.InvertSlice(i, inPlace, inPlace)
	for j, y := range src {
		if want := s.Invert(i, y); !same(dst[j], want) || !same(inPlace[j], want) {
			t.Fatalf("column %d: InvertSlice gives %v and in place %v for %v, Invert %v", i, dst[j], inPlace[j], y, want)
		}
	}
	if dst[len(src)] != 0 {
		t.Errorf("column %d: slice functions wrote past len(src)", i)
	}
}
