package pgcodec

import (
	"math"
	"strconv"
)

// appendFloat8 appends f as PostgreSQL 15 prints a float8 with
// extra_float_digits > 0: the shortest digits that read back as f, in
// fixed notation when the decimal exponent is in [-4, 15) and otherwise as
// d.ddde±XX with at least two exponent digits.
//
// Comparing f itself with 1e-4 and 1e15 decides the notation exactly: the
// shortest digits of a float always lie in its own rounding interval, so
// they are below a bound exactly when the float is.
func appendFloat8(dst []byte, f float64) []byte {
	if special, ok := floatSpecial(f); ok {
		return append(dst, special...)
	}
	if abs := math.Abs(f); f == 0 || abs >= 1e-4 && abs < 1e15 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'e', -1, 64)
}

// float4Tiny is the float4 nearest to 1e-4, the smallest float4 printed in
// fixed notation.
const float4Tiny = float64(float32(1e-4))

// appendFloat4 appends f as PostgreSQL 15 prints a float4 with
// extra_float_digits > 0: as appendFloat8 does, but with float4's shortest
// digits and fixed notation only for decimal exponents in [-4, 6).
func appendFloat4(dst []byte, f float32) []byte {
	g := float64(f)
	if special, ok := floatSpecial(g); ok {
		return append(dst, special...)
	}
	if abs := math.Abs(g); g == 0 || abs >= float4Tiny && abs < 1e6 {
		return strconv.AppendFloat(dst, g, 'f', -1, 32)
	}
	return strconv.AppendFloat(dst, g, 'e', -1, 32)
}

// floatSpecial returns Postgres' spelling of NaN and the infinities.
func floatSpecial(f float64) (string, bool) {
	switch {
	case f != f:
		return "NaN", true
	case math.IsInf(f, 1):
		return "Infinity", true
	case math.IsInf(f, -1):
		return "-Infinity", true
	}
	return "", false
}
