package gatrun

import (
	"strconv"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/series"
)

// Forecasts carry the time columns of the steps they predict, extrapolated
// from the source's last two time rows: integer year and month (or
// quarter) columns count calendar periods, a single integer column steps
// by its last difference, a single date or timestamp column by its last
// difference in whole months when the two rows fall on the same day and
// time of the month (else by the exact duration). Time columns of other
// shapes come out NULL.

// LastTwo returns the last two of rows, latest first, as extrapolate reads them.
func LastTwo(rows [][]string) [][]string {
	var out [][]string
	for i := len(rows) - 1; i >= 0 && i >= len(rows)-2; i-- {
		out = append(out, rows[i])
	}
	return out
}

// Extrapolate returns the time columns' values step periods after the
// last row (NULLs where it cannot tell).
func Extrapolate(names, kinds []string, last [][]string, step int) []any {
	out := make([]any, len(names))
	if len(last) < 2 {
		return out
	}
	ints := func(row []string) ([]int64, bool) {
		v := make([]int64, len(row))
		for i, s := range row {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, false
			}
			v[i] = n
		}
		return v, true
	}
	switch {
	case len(kinds) == 2 && kinds[0] == series.TimeInt && kinds[1] == series.TimeInt && strings.EqualFold(names[0], "year") &&
		(strings.EqualFold(names[1], "month") || strings.EqualFold(names[1], "quarter")):
		per := int64(12)
		if strings.EqualFold(names[1], "quarter") {
			per = 4
		}
		a, okA := ints(last[0])
		b, okB := ints(last[1])
		if !okA || !okB {
			return out
		}
		at, before := a[0]*per+a[1]-1, b[0]*per+b[1]-1
		next := at + int64(step)*(at-before)
		return []any{floorDiv(next, per), next - floorDiv(next, per)*per + 1}
	case len(kinds) == 1 && kinds[0] == series.TimeInt:
		a, okA := ints(last[0])
		b, okB := ints(last[1])
		if okA && okB {
			out[0] = a[0] + int64(step)*(a[0]-b[0])
		}
	case len(kinds) == 1 && (kinds[0] == series.TimeDate || kinds[0] == series.TimeTimestamp):
		layout := time.DateOnly
		if kinds[0] == series.TimeTimestamp {
			layout = "2006-01-02 15:04:05.999999"
		}
		a, errA := time.Parse(layout, last[0][0])
		b, errB := time.Parse(layout, last[1][0])
		if errA != nil || errB != nil {
			return out
		}
		months := (a.Year()-b.Year())*12 + int(a.Month()-b.Month())
		if months != 0 && a.Day() == b.Day() && a.Sub(time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)) ==
			b.Sub(time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)) {
			out[0] = a.AddDate(0, step*months, 0)
		} else {
			out[0] = a.Add(time.Duration(step) * a.Sub(b))
		}
	}
	return out
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
