package pgcodec

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// decimalTextEncoder returns the text encoder of DECIMAL(p, scale).
func decimalTextEncoder(scale int) Encoder {
	return func(dst []byte, arr arrow.Array, i int) []byte {
		var buf digitBuf
		neg, digits := unscaledDigits(&buf, arr, i, false)
		return appendNumericText(dst, neg, digits, scale)
	}
}

// decimalBinaryEncoder returns the binary encoder of DECIMAL(p, scale).
func decimalBinaryEncoder(scale int) Encoder {
	return func(dst []byte, arr arrow.Array, i int) []byte {
		var buf digitBuf
		neg, digits := unscaledDigits(&buf, arr, i, false)
		return appendNumericBinary(dst, neg, digits, scale)
	}
}

// textHugeInt encodes HUGEINT, which DuckDB sends as decimal128(38, 0).
func textHugeInt(dst []byte, arr arrow.Array, i int) []byte {
	var buf digitBuf
	neg, digits := unscaledDigits(&buf, arr, i, false)
	return appendNumericText(dst, neg, digits, 0)
}

// textUHugeInt encodes UHUGEINT, which DuckDB sends as the bits of a
// decimal128(38, 0), so values of 2^127 and above arrive "negative".
func textUHugeInt(dst []byte, arr arrow.Array, i int) []byte {
	var buf digitBuf
	_, digits := unscaledDigits(&buf, arr, i, true)
	return append(dst, digits...)
}

func binaryHugeInt(dst []byte, arr arrow.Array, i int) []byte {
	var buf digitBuf
	neg, digits := unscaledDigits(&buf, arr, i, false)
	return appendNumericBinary(dst, neg, digits, 0)
}

func binaryUHugeInt(dst []byte, arr arrow.Array, i int) []byte {
	var buf digitBuf
	_, digits := unscaledDigits(&buf, arr, i, true)
	return appendNumericBinary(dst, false, digits, 0)
}

// binaryUint64 encodes UBIGINT as numeric.
func binaryUint64(dst []byte, arr arrow.Array, i int) []byte {
	var buf digitBuf
	_, digits := unscaledDigits(&buf, arr, i, true)
	return appendNumericBinary(dst, false, digits, 0)
}

// textBigNum encodes BIGNUM in decimal. A value that is not in DuckDB's
// BIGNUM layout, which DuckDB never produces, is sent as NaN.
func textBigNum(dst []byte, arr arrow.Array, i int) []byte {
	neg, digits, ok := bignumDigits(bytesAt(arr, i))
	if !ok {
		return append(dst, "NaN"...)
	}
	return appendNumericText(dst, neg, digits, 0)
}

func binaryBigNum(dst []byte, arr arrow.Array, i int) []byte {
	neg, digits, ok := bignumDigits(bytesAt(arr, i))
	if !ok {
		return appendNumericNaN(dst)
	}
	return appendNumericBinary(dst, neg, digits, 0)
}
