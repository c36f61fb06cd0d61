package scale

import "math"

// SignedLog compresses x logarithmically while keeping its sign: it returns
// sign(x)*(1+ln|x|) when |x| > 1 and x itself otherwise.
//
// The function is odd (SignedLog(-x) == -SignedLog(x) exactly), strictly
// increasing, and continuous with slope 1 on both sides of |x| = 1, where
// both branches give ±1. It maps |x| > 1 onto |y| > 1 and [-1, 1] onto
// itself, so SignedExp inverts it. NaN gives NaN, +Inf gives +Inf and -Inf
// gives -Inf.
func SignedLog(x float64) float64 {
	switch {
	case x > 1:
		return 1 + math.Log(x)
	case x < -1:
		return -1 - math.Log(-x)
	}
	return x
}

// SignedExp is the inverse of SignedLog: it returns sign(y)*exp(|y|-1) when
// |y| > 1 and y itself otherwise, so SignedExp(SignedLog(x)) == x up to
// rounding for every x.
//
// Like SignedLog it is odd, strictly increasing and continuous with slope 1
// at |y| = 1. NaN gives NaN, +Inf gives +Inf and -Inf gives -Inf; a finite y
// beyond about ±710.78 overflows to ±Inf.
func SignedExp(y float64) float64 {
	switch {
	case y > 1:
		return math.Exp(y - 1)
	case y < -1:
		return -math.Exp(-y - 1)
	}
	return y
}
