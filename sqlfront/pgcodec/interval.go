package pgcodec

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// intervalAt returns the months, days and microseconds of the INTERVAL at
// row i. DuckDB stores microseconds and sends nanoseconds, so the division
// is exact.
func intervalAt(arr arrow.Array, i int) (int32, int32, int64) {
	v := arr.(*array.MonthDayNanoInterval).Value(i)
	return v.Months, v.Days, v.Nanoseconds / 1000
}

func textInterval(dst []byte, arr arrow.Array, i int) []byte {
	months, days, us := intervalAt(arr, i)
	return appendInterval(dst, months, days, us)
}

// appendInterval appends an interval as Postgres does with IntervalStyle
// postgres: "1 year 2 mons 3 days 04:05:06.789", each non-zero field with
// its own sign, a "+" on a positive field that follows a negative one, and
// the time part whenever it is non-zero or nothing else was written.
func appendInterval(dst []byte, months, days int32, us int64) []byte {
	start := len(dst)
	before := false
	dst, before = appendIntervalPart(dst, start, int64(months/12), "year", before)
	dst, before = appendIntervalPart(dst, start, int64(months%12), "mon", before)
	dst, before = appendIntervalPart(dst, start, int64(days), "day", before)
	if len(dst) > start && us == 0 {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	abs := uint64(us)
	switch {
	case us < 0:
		dst, abs = append(dst, '-'), -abs
	case before:
		dst = append(dst, '+')
	}
	return appendClock(dst, abs)
}

// appendIntervalPart appends one non-zero field of an interval, such as
// "-1 days", and reports whether it was negative, which makes the next
// field carry an explicit "+".
func appendIntervalPart(dst []byte, start int, v int64, unit string, before bool) ([]byte, bool) {
	if v == 0 {
		return dst, before
	}
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	if before && v > 0 {
		dst = append(dst, '+')
	}
	dst = append(strconv.AppendInt(dst, v, 10), ' ')
	dst = append(dst, unit...)
	if v != 1 {
		dst = append(dst, 's')
	}
	return dst, v < 0
}
