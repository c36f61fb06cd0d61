package gatrun

import (
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// TestCalendarSeason reads the season from the time columns' names and,
// for a single date column, from the median spacing of its rows.
func TestCalendarSeason(t *testing.T) {
	for _, tc := range []struct {
		name         string
		names, kinds []string
		rows         [][]string
		want         int
	}{
		{"year and quarter", []string{"Year", "quarter"}, []string{series.TimeInt, series.TimeInt}, nil, 4},
		{"year and week", []string{"year", "week"}, []string{series.TimeInt, series.TimeInt}, nil, 52},
		{"daily dates", []string{"d"}, []string{series.TimeDate}, [][]string{{"2020-01-01"}, {"2020-01-02"}, {"2020-01-03"}}, 7},
		{"monthly dates", []string{"d"}, []string{series.TimeDate}, [][]string{{"2020-01-01"}, {"2020-02-01"}, {"2020-03-01"}}, 12},
		{"an integer", []string{"t"}, []string{series.TimeInt}, nil, 0},
	} {
		if got, why := calendarSeason(tc.names, tc.kinds, tc.rows); got != tc.want || (got > 0) != (why != "") {
			t.Errorf("%s: calendarSeason = %d (%q), want %d", tc.name, got, why, tc.want)
		}
	}
}

// TestLongScalerName names a long source's scaler after the model and
// the first 12 hex digits of its data's fingerprint.
func TestLongScalerName(t *testing.T) {
	for fp, want := range map[string]string{"0123456789abcdef": "m@0123456789ab", "sha256:abc": "m@abc"} {
		if got := longScalerName("m", fp); got != want {
			t.Errorf("longScalerName(m, %q) = %q, want %q", fp, got, want)
		}
	}
}
