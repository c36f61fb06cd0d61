package pgcodec

import (
	"encoding/binary"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// digitBuf holds the decimal digits of an unscaled value: 39 digits for
// 128 bits, 77 for 256.
type digitBuf [80]byte

// unscaledDigits returns the sign and decimal digits of the unscaled
// integer at row i of a decimal array (any width), of the fixed-size
// binary form of HUGEINT/UHUGEINT, or of a uint64 array. unsigned makes a
// decimal128 or 16-byte value read as unsigned, which is how UHUGEINT
// values above the int128 range reach Arrow. Zero is "0".
func unscaledDigits(buf *digitBuf, arr arrow.Array, i int, unsigned bool) (bool, []byte) {
	switch a := storageOf(arr).(type) {
	case *array.Decimal128:
		v := a.Value(i)
		return digits128(buf, uint64(v.HighBits()), v.LowBits(), unsigned)
	case *array.FixedSizeBinary:
		b := a.Value(i)
		return digits128(buf, binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b), unsigned)
	case *array.Decimal64:
		return digits64(buf, int64(a.Value(i)))
	case *array.Decimal32:
		return digits64(buf, int64(a.Value(i)))
	case *array.Uint64:
		return false, strconv.AppendUint(buf[:0], a.Value(i), 10)
	case *array.Decimal256:
		v := a.Value(i).BigInt()
		return v.Sign() < 0, new(big.Int).Abs(v).Append(buf[:0], 10)
	}
	unexpected(arr, "a decimal")
	return false, nil
}

func digits64(buf *digitBuf, v int64) (bool, []byte) {
	if v < 0 {
		return true, strconv.AppendUint(buf[:0], -uint64(v), 10)
	}
	return false, strconv.AppendUint(buf[:0], uint64(v), 10)
}

// digits128 returns the sign and decimal digits of the two's-complement
// (or, if unsigned, plain) 128-bit integer hi:lo.
func digits128(buf *digitBuf, hi, lo uint64, unsigned bool) (bool, []byte) {
	neg := !unsigned && hi>>63 == 1
	if neg {
		var borrow uint64
		lo, borrow = bits.Sub64(0, lo, 0)
		hi, _ = bits.Sub64(0, hi, borrow)
	}
	const chunk = 1e19
	end := len(buf)
	for hi != 0 {
		var rem uint64
		hi, rem = hi/chunk, hi%chunk
		lo, rem = bits.Div64(rem, lo, chunk)
		for k := 0; k < 19; k++ {
			end--
			buf[end] = byte('0' + rem%10)
			rem /= 10
		}
	}
	tail := strconv.AppendUint(buf[end-20:end-20], lo, 10)
	if end == len(buf) {
		return neg, tail
	}
	start := end - len(tail)
	copy(buf[start:], tail)
	return neg, buf[start:]
}

// appendNumericText appends the unscaled integer digits with the decimal
// point placed scale digits from the right, keeping exactly scale fraction
// digits as Postgres does for numeric(p, s).
func appendNumericText(dst []byte, neg bool, digits []byte, scale int) []byte {
	if neg && !isZero(digits) {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		return append(dst, digits...)
	}
	intPart, frac := splitScale(digits, scale)
	if len(intPart) == 0 {
		dst = append(dst, '0')
	}
	dst = append(dst, intPart...)
	dst = append(dst, '.')
	for k := len(frac); k < scale; k++ {
		dst = append(dst, '0')
	}
	return append(dst, frac...)
}

// splitScale splits the digits of an unscaled value into its integer part,
// without leading zeros, and its last scale digits (fewer if there are
// fewer digits: the missing ones are leading zeros of the fraction).
func splitScale(digits []byte, scale int) ([]byte, []byte) {
	if scale < 0 {
		scale = 0
	}
	if len(digits) <= scale {
		return nil, digits
	}
	intPart, frac := digits[:len(digits)-scale], digits[len(digits)-scale:]
	for len(intPart) > 0 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	return intPart, frac
}

func isZero(digits []byte) bool {
	for _, c := range digits {
		if c != '0' {
			return false
		}
	}
	return true
}

// The sign words of Postgres' binary numeric.
const (
	numericPos = 0x0000
	numericNeg = 0x4000
	numericNaN = 0xC000
)

// appendNumericBinary appends the unscaled digits with the given scale in
// Postgres' binary numeric format: int16 count of base-10000 digits, int16
// weight of the first, uint16 sign, int16 display scale, then the digits,
// without leading or trailing zero digits.
func appendNumericBinary(dst []byte, neg bool, digits []byte, scale int) []byte {
	intPart, frac := splitScale(digits, scale)
	lead := (4 - len(intPart)%4) % 4
	fracLead := 0
	if scale > len(frac) {
		fracLead = scale - len(frac)
	}
	total := lead + len(intPart) + fracLead + len(frac)
	digitAt := func(k int) int {
		k -= lead
		if k < len(intPart) {
			if k < 0 {
				return 0
			}
			return int(intPart[k] - '0')
		}
		k -= len(intPart) + fracLead
		if k < 0 || k >= len(frac) {
			return 0
		}
		return int(frac[k] - '0')
	}
	head := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0)
	weight := (lead+len(intPart))/4 - 1
	n := 0
	for k := 0; k < total; k += 4 {
		g := digitAt(k)*1000 + digitAt(k+1)*100 + digitAt(k+2)*10 + digitAt(k+3)
		if n == 0 && g == 0 {
			weight--
			continue
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(g))
		n++
	}
	for n > 0 && dst[len(dst)-1] == 0 && dst[len(dst)-2] == 0 {
		dst, n = dst[:len(dst)-2], n-1
	}
	return putNumericHeader(dst, head, n, weight, neg, scale)
}

// putNumericHeader fills in the 8-byte header reserved at dst[head:].
func putNumericHeader(dst []byte, head, n, weight int, neg bool, scale int) []byte {
	sign := numericPos
	if n == 0 {
		weight = 0
	} else if neg {
		sign = numericNeg
	}
	binary.BigEndian.PutUint16(dst[head:], uint16(n))
	binary.BigEndian.PutUint16(dst[head+2:], uint16(int16(weight)))
	binary.BigEndian.PutUint16(dst[head+4:], uint16(sign))
	binary.BigEndian.PutUint16(dst[head+6:], uint16(max(scale, 0)))
	return dst
}

// appendNumericNaN appends the binary numeric NaN.
func appendNumericNaN(dst []byte) []byte {
	return append(dst, 0, 0, 0, 0, numericNaN>>8, 0, 0, 0)
}

// bignumDigits decodes DuckDB's BIGNUM layout: a 3-byte big-endian header
// whose top bit is set for non-negative values and whose other 23 bits
// count the magnitude bytes that follow, big-endian; a negative value has
// every byte, header included, inverted. ok is false if b is malformed.
func bignumDigits(b []byte) (neg bool, digits []byte, ok bool) {
	if len(b) < 3 {
		return false, nil, false
	}
	neg = b[0]&0x80 == 0
	mask := byte(0)
	if neg {
		mask = 0xff
	}
	n := int(b[0]^mask)&0x7f<<16 | int(b[1]^mask)<<8 | int(b[2]^mask)
	if n != len(b)-3 {
		return false, nil, false
	}
	mag := make([]byte, n)
	for k := range mag {
		mag[k] = b[3+k] ^ mask
	}
	return neg, new(big.Int).SetBytes(mag).Append(nil, 10), true
}
