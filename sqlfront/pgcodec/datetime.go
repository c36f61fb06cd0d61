package pgcodec

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

// Time arithmetic constants. Postgres counts from 2000-01-01, Arrow from
// 1970-01-01.
const (
	usPerSec      = 1_000_000
	usPerMinute   = 60 * usPerSec
	usPerHour     = 60 * usPerMinute
	usPerDay      = 24 * usPerHour
	pgEpochDays   = 10957
	pgEpochMicros = pgEpochDays * usPerDay
	// maxTZOffset is DuckDB's bound on a TIMETZ offset in seconds; its
	// packed TIMETZ stores maxTZOffset minus the offset.
	maxTZOffset = 16*60*60 - 1
)

// infinity classifies a date or timestamp as finite (0), infinity (1) or
// -infinity (-1). DuckDB spells infinity as the type's maximum value and
// -infinity as the negated maximum.
func infinity(v, maxValue int64) int {
	switch {
	case v >= maxValue:
		return 1
	case v <= -maxValue:
		return -1
	}
	return 0
}

func appendInfinity(dst []byte, inf int) []byte {
	if inf < 0 {
		return append(dst, "-infinity"...)
	}
	return append(dst, "infinity"...)
}

func textDate(dst []byte, arr arrow.Array, i int) []byte {
	days := int64(arr.(*array.Date32).Value(i))
	if inf := infinity(days, math.MaxInt32); inf != 0 {
		return appendInfinity(dst, inf)
	}
	dst, bc := appendYMD(dst, days)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

func textTime(dst []byte, arr arrow.Array, i int) []byte {
	return appendClock(dst, uint64(arr.(*array.Time64).Value(i)))
}

func textTimeTZ(dst []byte, arr arrow.Array, i int) []byte {
	us, offset := timeTZAt(arr, i)
	return appendOffset(appendClock(dst, uint64(us)), offset)
}

// timeTZAt returns the local time in microseconds and the UTC offset in
// seconds east of a TIMETZ. DuckDB sends time64[us] without the offset by
// default (reported here as 0), or with arrow_lossless_conversion its
// packed 8-byte form: micros<<24 | (maxTZOffset - offset).
func timeTZAt(arr arrow.Array, i int) (int64, int32) {
	switch a := storageOf(arr).(type) {
	case *array.Time64:
		return int64(a.Value(i)), 0
	case *array.FixedSizeBinary:
		v := binary.LittleEndian.Uint64(a.Value(i))
		return int64(v >> 24), maxTZOffset - int32(v&0xffffff)
	}
	unexpected(arr, "time64 or fixed_size_binary[8]")
	return 0, 0
}

// appendOffset appends a UTC offset as Postgres does: +HH, +HH:MM or
// +HH:MM:SS.
func appendOffset(dst []byte, east int32) []byte {
	sign := byte('+')
	if east < 0 {
		sign, east = '-', -east
	}
	dst = append2(append(dst, sign), int(east/3600))
	if m, s := east/60%60, east%60; m != 0 || s != 0 {
		dst = append2(append(dst, ':'), int(m))
		if s != 0 {
			dst = append2(append(dst, ':'), int(s))
		}
	}
	return dst
}

// timestampUnit returns the Arrow unit DuckDB uses for a timestamp type.
func timestampUnit(id sqltype.ID) arrow.TimeUnit {
	switch id {
	case sqltype.TimestampS:
		return arrow.Second
	case sqltype.TimestampMS:
		return arrow.Millisecond
	case sqltype.TimestampNS:
		return arrow.Nanosecond
	}
	return arrow.Microsecond
}

// timestampMicros converts a timestamp in unit to microseconds since 1970,
// truncating nanoseconds toward the past, and classifies its infinity.
func timestampMicros(v int64, unit arrow.TimeUnit) (int64, int) {
	if inf := infinity(v, math.MaxInt64); inf != 0 {
		return 0, inf
	}
	switch unit {
	case arrow.Second:
		return v * usPerSec, 0
	case arrow.Millisecond:
		return v * 1000, 0
	case arrow.Nanosecond:
		return floorDiv(v, 1000), 0
	}
	return v, 0
}

// timestampTextEncoder returns the text encoder of a timestamp type.
func timestampTextEncoder(id sqltype.ID) Encoder {
	unit := timestampUnit(id)
	if id == sqltype.TimestampTZ {
		return timestampTZTextEncoder(unit)
	}
	return func(dst []byte, arr arrow.Array, i int) []byte {
		us, inf := timestampMicros(int64(arr.(*array.Timestamp).Value(i)), unit)
		if inf != 0 {
			return appendInfinity(dst, inf)
		}
		return appendTimestamp(dst, us, false, 0)
	}
}

// appendTimestamp appends microseconds since 1970 as Postgres' ISO text,
// "YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM]][ BC]", with the offset east (in
// seconds) if tz is set; us is the local time at that offset.
func appendTimestamp(dst []byte, us int64, tz bool, east int32) []byte {
	days := floorDiv(us, usPerDay)
	tod := uint64(us - days*usPerDay)
	y, m, d := civil(days)
	if y < 1 || y > 9999 {
		return appendTimestampSlow(dst, days, tod, tz, east)
	}
	// The common case is laid out in a fixed buffer and appended once.
	var b [40]byte
	put2(b[0:], int(y/100))
	put2(b[2:], int(y%100))
	b[4], b[7], b[10], b[13], b[16] = '-', '-', ' ', ':', ':'
	put2(b[5:], m)
	put2(b[8:], d)
	put2(b[11:], int(tod/usPerHour))
	put2(b[14:], int(tod/usPerMinute%60))
	put2(b[17:], int(tod/usPerSec%60))
	n := 19
	if frac := tod % usPerSec; frac != 0 {
		n += copy(b[n:], appendFraction(b[n:n], frac))
	}
	if tz {
		n += copy(b[n:], appendOffset(b[n:n], east))
	}
	return append(dst, b[:n]...)
}

// appendTimestampSlow is appendTimestamp for years outside 1..9999.
func appendTimestampSlow(dst []byte, days int64, tod uint64, tz bool, east int32) []byte {
	dst, bc := appendYMD(dst, days)
	dst = appendClock(append(dst, ' '), tod)
	if tz {
		dst = appendOffset(dst, east)
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// pairs holds the two-digit spellings of 0 to 99, back to back.
const pairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"4041424344454647484950515253545556575859606162636465666768697071727374757677787980818283848586878889" +
	"90919293949596979899"

// put2 writes v in [0, 99] as two digits at b[0:2].
func put2(b []byte, v int) {
	b[0], b[1] = pairs[2*v], pairs[2*v+1]
}

// appendYMD appends the proleptic Gregorian date days after 1970-01-01 as
// YYYY-MM-DD and reports whether it is BC. Years before 1 AD are numbered
// as Postgres does: year 0 is 1 BC.
func appendYMD(dst []byte, days int64) ([]byte, bool) {
	y, m, d := civil(days)
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	if y > 9999 {
		dst = strconv.AppendInt(dst, y, 10)
	} else {
		dst = append4(dst, int(y))
	}
	return append(dst, '-', pairs[2*m], pairs[2*m+1], '-', pairs[2*d], pairs[2*d+1]), bc
}

// civil converts days since 1970-01-01 to an astronomical year, month and
// day in the proleptic Gregorian calendar, using Neri and Schneider's
// algorithm ("Euclidean affine functions and their application to
// calendar algorithms", 2022) within about ±5.8 million years and Howard
// Hinnant's civil_from_days beyond.
func civil(days int64) (int64, int, int) {
	const shift = 82                // 400-year cycles added to keep n non-negative.
	const k = 719468 + 146097*shift // Days from 0000-03-01 minus the shift, to 1970-01-01.
	if days < -k || days > math.MaxUint32/4-k-1 {
		return civilHinnant(days)
	}
	n := uint32(days + k)
	n1 := 4*n + 3
	c := n1 / 146097
	nc := n1 % 146097 / 4
	p2 := 2939745 * uint64(4*nc+3)
	z := uint32(p2 >> 32)
	ny := uint32(p2) / 2939745 / 4
	n3 := 2141*ny + 197913
	y, m, d := int64(100*c+z)-400*shift, int(n3>>16), int(n3&0xffff/2141)+1
	if ny >= 306 {
		y, m = y+1, m-12
	}
	return y, m, d
}

// civilHinnant is Howard Hinnant's civil_from_days, for any int64 days.
func civilHinnant(days int64) (int64, int, int) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := int(doy - (153*mp+2)/5 + 1)
	m := int(mp + 3)
	if mp >= 10 {
		m = int(mp - 9)
	}
	y := yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// appendClock appends a time of day in microseconds as HH:MM:SS with a
// fraction only if non-zero, trailing zeros trimmed. Hours may exceed 23.
func appendClock(dst []byte, us uint64) []byte {
	h, m, s := us/usPerHour, int(us/usPerMinute%60), int(us/usPerSec%60)
	if h < 100 {
		dst = append(dst, byte('0'+h/10), byte('0'+h%10))
	} else {
		dst = strconv.AppendUint(dst, h, 10)
	}
	dst = append(dst, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	return appendFraction(dst, us%usPerSec)
}

// appendFraction appends ".ffffff" for us in (0, 1e6) with trailing zeros
// trimmed, and nothing for 0.
func appendFraction(dst []byte, us uint64) []byte {
	if us == 0 {
		return dst
	}
	b := [7]byte{'.'}
	for k := 6; k >= 1; k-- {
		b[k] = byte('0' + us%10)
		us /= 10
	}
	n := 7
	for b[n-1] == '0' {
		n--
	}
	return append(dst, b[:n]...)
}

// append2 appends v in [0, 99] as two digits.
func append2(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// append4 appends v in [0, 9999] as four digits.
func append4(dst []byte, v int) []byte {
	return append(dst, pairs[2*(v/100)], pairs[2*(v/100)+1], pairs[2*(v%100)], pairs[2*(v%100)+1])
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
