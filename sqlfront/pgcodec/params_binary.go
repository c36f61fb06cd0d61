package pgcodec

import (
	"encoding/binary"
	"math"
	"strconv"
)

// maxTZDisplacement is Postgres' bound on a timetz offset: 15:59.
const maxTZDisplacement = 15*3600 + 59*60

// decodeBinaryDate renders int32 days since 2000-01-01 as DuckDB date text:
// "YYYY-MM-DD", "YYYY-MM-DD (BC)", "infinity" or "-infinity".
func decodeBinaryDate(data []byte) ([]byte, error) {
	if err := wantLen(OIDDate, data, 4); err != nil {
		return nil, err
	}
	switch v := int32(binary.BigEndian.Uint32(data)); v {
	case math.MaxInt32:
		return []byte("infinity"), nil
	case math.MinInt32:
		return []byte("-infinity"), nil
	default:
		return appendDuckDate(nil, int64(v)+pgEpochDays), nil
	}
}

// appendDuckDate appends days since 1970-01-01 as DuckDB reads a date.
func appendDuckDate(dst []byte, days int64) []byte {
	dst, bc := appendYMD(dst, days)
	if bc {
		dst = append(dst, " (BC)"...)
	}
	return dst
}

// decodeBinaryTime renders int64 microseconds since midnight as
// "HH:MM:SS[.ffffff]".
func decodeBinaryTime(data []byte) ([]byte, error) {
	if err := wantLen(OIDTime, data, 8); err != nil {
		return nil, err
	}
	us := int64(binary.BigEndian.Uint64(data))
	if us < 0 || us > usPerDay {
		return nil, binaryError(OIDTime, "time out of range")
	}
	return appendClock(nil, uint64(us)), nil
}

// decodeBinaryTimeTZ renders int64 microseconds and an int32 offset in
// seconds west of UTC as "HH:MM:SS[.ffffff]+HH[:MM[:SS]]".
func decodeBinaryTimeTZ(data []byte) ([]byte, error) {
	if err := wantLen(OIDTimeTZ, data, 12); err != nil {
		return nil, err
	}
	us := int64(binary.BigEndian.Uint64(data))
	west := int32(binary.BigEndian.Uint32(data[8:]))
	if us < 0 || us > usPerDay {
		return nil, binaryError(OIDTimeTZ, "time out of range")
	}
	if west < -maxTZDisplacement || west > maxTZDisplacement {
		return nil, binaryError(OIDTimeTZ, "time zone displacement out of range")
	}
	return appendOffset(appendClock(nil, uint64(us)), -west), nil
}

// decodeBinaryTimestamp renders int64 microseconds since 2000-01-01 as
// DuckDB timestamp text, "YYYY-MM-DD[ (BC)] HH:MM:SS[.ffffff]", with
// "+00" appended for timestamptz.
func decodeBinaryTimestamp(oid uint32, data []byte) ([]byte, error) {
	if err := wantLen(oid, data, 8); err != nil {
		return nil, err
	}
	v := int64(binary.BigEndian.Uint64(data))
	switch {
	case v == math.MaxInt64:
		return []byte("infinity"), nil
	case v == math.MinInt64:
		return []byte("-infinity"), nil
	case v > math.MaxInt64-pgEpochMicros:
		return nil, binaryError(oid, "timestamp out of range")
	}
	us := v + pgEpochMicros
	days := floorDiv(us, usPerDay)
	dst := appendDuckDate(nil, days)
	dst = appendClock(append(dst, ' '), uint64(us-days*usPerDay))
	if oid == OIDTimestampTZ {
		dst = append(dst, "+00"...)
	}
	return dst, nil
}

// decodeBinaryInterval renders int64 microseconds, int32 days and int32
// months as "M months D days U microseconds", which DuckDB reads exactly.
func decodeBinaryInterval(data []byte) ([]byte, error) {
	if err := wantLen(OIDInterval, data, 16); err != nil {
		return nil, err
	}
	us := int64(binary.BigEndian.Uint64(data))
	days := int32(binary.BigEndian.Uint32(data[8:]))
	months := int32(binary.BigEndian.Uint32(data[12:]))
	dst := strconv.AppendInt(nil, int64(months), 10)
	dst = strconv.AppendInt(append(dst, " months "...), int64(days), 10)
	dst = strconv.AppendInt(append(dst, " days "...), us, 10)
	return append(dst, " microseconds"...), nil
}

// decodeBinaryNumeric renders Postgres' binary numeric (see
// appendNumericBinary) as decimal text with exactly its display scale of
// fraction digits, or as NaN, Infinity or -Infinity.
func decodeBinaryNumeric(data []byte) ([]byte, error) {
	if len(data) < 8 {
		return nil, binaryError(OIDNumeric, "want at least 8 bytes, got %d", len(data))
	}
	n := int(binary.BigEndian.Uint16(data))
	weight := int(int16(binary.BigEndian.Uint16(data[2:])))
	sign := binary.BigEndian.Uint16(data[4:])
	dscale := int(binary.BigEndian.Uint16(data[6:]))
	if len(data) != 8+2*n {
		return nil, binaryError(OIDNumeric, "want %d bytes for %d digits, got %d", 8+2*n, n, len(data))
	}
	switch sign {
	case numericNaN:
		return []byte("NaN"), nil
	case 0xD000:
		return []byte("Infinity"), nil
	case 0xF000:
		return []byte("-Infinity"), nil
	case numericPos, numericNeg:
	default:
		return nil, binaryError(OIDNumeric, "invalid sign 0x%04x", sign)
	}
	if dscale > 0x3FFF {
		return nil, binaryError(OIDNumeric, "invalid display scale %d", dscale)
	}
	digits := make([]uint16, n)
	for k := range digits {
		if digits[k] = binary.BigEndian.Uint16(data[8+2*k:]); digits[k] >= 10000 {
			return nil, binaryError(OIDNumeric, "invalid digit %d", digits[k])
		}
	}
	return appendNumericGroups(nil, sign == numericNeg && n > 0, digits, weight, dscale), nil
}

// appendNumericGroups appends a numeric given as base-10000 digits, the
// first of weight weight, with dscale fraction digits.
func appendNumericGroups(dst []byte, neg bool, digits []uint16, weight, dscale int) []byte {
	group := func(k int) int {
		if k < 0 || k >= len(digits) {
			return 0
		}
		return int(digits[k])
	}
	if neg {
		dst = append(dst, '-')
	}
	if weight < 0 {
		dst = append(dst, '0')
	} else {
		dst = strconv.AppendInt(dst, int64(group(0)), 10)
		for k := 1; k <= weight; k++ {
			dst = append4(dst, group(k))
		}
	}
	if dscale == 0 {
		return dst
	}
	dst = append(dst, '.')
	for k, left := weight+1, dscale; left > 0; k, left = k+1, left-4 {
		var four [4]byte
		g := group(k)
		four[0], four[1], four[2], four[3] = byte('0'+g/1000), byte('0'+g/100%10), byte('0'+g/10%10), byte('0'+g%10)
		dst = append(dst, four[:min(left, 4)]...)
	}
	return dst
}

// decodeBinaryBits renders Postgres' binary bit/varbit, int32 bit count
// then the bits most significant first, as a string of '0' and '1'.
func decodeBinaryBits(oid uint32, data []byte) ([]byte, error) {
	if len(data) < 4 {
		return nil, binaryError(oid, "want at least 4 bytes, got %d", len(data))
	}
	n := int64(int32(binary.BigEndian.Uint32(data)))
	if n < 0 || (n+7)/8 != int64(len(data)-4) {
		return nil, binaryError(oid, "%d bytes cannot hold %d bits", len(data)-4, n)
	}
	dst := make([]byte, n)
	for k := range dst {
		dst[k] = '0' + data[4+k/8]>>(7-k%8)&1
	}
	return dst, nil
}
