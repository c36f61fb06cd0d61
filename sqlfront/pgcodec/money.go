package pgcodec

import (
	"encoding/binary"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// moneyTextEncoder returns the text encoder of money, a DECIMAL of the
// given scale under storage's money alias: "$1,234.56" and "-$1.00", as
// Postgres' cash_out prints money in the C locale.
func moneyTextEncoder(scale int) Encoder {
	return func(dst []byte, arr arrow.Array, i int) []byte {
		var buf digitBuf
		neg, digits := unscaledDigits(&buf, arr, i, false)
		if neg && !isZero(digits) {
			dst = append(dst, '-')
		}
		dst = append(dst, '$')
		intPart, frac := splitScale(digits, scale)
		if len(intPart) == 0 {
			dst = append(dst, '0')
		}
		for k, c := range intPart {
			if k > 0 && (len(intPart)-k)%3 == 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, c)
		}
		if scale <= 0 {
			return dst
		}
		dst = append(dst, '.')
		for k := len(frac); k < scale; k++ {
			dst = append(dst, '0')
		}
		return append(dst, frac...)
	}
}

// binaryMoney encodes money as Postgres sends it: int64 cents. Its DECIMAL
// has two fraction digits and at most 18 digits, so the unscaled value is
// the cents and fits.
func binaryMoney(dst []byte, arr arrow.Array, i int) []byte {
	var buf digitBuf
	neg, digits := unscaledDigits(&buf, arr, i, false)
	cents, _ := strconv.ParseInt(string(digits), 10, 64)
	if neg {
		cents = -cents
	}
	return binary.BigEndian.AppendUint64(dst, uint64(cents))
}
