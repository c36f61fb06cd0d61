package gatrun_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/mlops/series"
)

// TestExtrapolate steps a forecast's time columns from the last two rows:
// calendar months and quarters roll over years, a single integer column
// and a date column step by their last difference, other shapes are NULL.
func TestExtrapolate(t *testing.T) {
	ym := []string{"year", "month"}
	ints := []string{series.TimeInt, series.TimeInt}
	for _, tc := range []struct {
		name         string
		names, kinds []string
		last         [][]string
		step         int
		want         []any
	}{
		{"month rolls the year", ym, ints, [][]string{{"2000", "11"}, {"2000", "10"}}, 2, []any{int64(2001), int64(1)}},
		{"quarter", []string{"Year", "Quarter"}, ints, [][]string{{"1999", "4"}, {"1999", "3"}}, 1, []any{int64(2000), int64(1)}},
		{"integer", []string{"t"}, []string{series.TimeInt}, [][]string{{"10"}, {"8"}}, 3, []any{int64(16)}},
		{"monthly dates", []string{"d"}, []string{series.TimeDate}, [][]string{{"2020-03-15"}, {"2020-02-15"}}, 2,
			[]any{time.Date(2020, 5, 15, 0, 0, 0, 0, time.UTC)}},
		{"month ends step by the duration", []string{"d"}, []string{series.TimeDate}, [][]string{{"2020-03-31"}, {"2020-02-29"}}, 1,
			[]any{time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC)}},
		{"one row", ym, ints, [][]string{{"2000", "11"}}, 1, []any{nil, nil}},
		{"text", []string{"label"}, []string{series.TimeOther}, [][]string{{"b"}, {"a"}}, 1, []any{nil}},
	} {
		if got := gatrun.Extrapolate(tc.names, tc.kinds, tc.last, tc.step); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Extrapolate = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := gatrun.LastTwo([][]string{{"1"}, {"2"}, {"3"}}); !reflect.DeepEqual(got, [][]string{{"3"}, {"2"}}) {
		t.Errorf("LastTwo = %v, want the last two, latest first", got)
	}
}
