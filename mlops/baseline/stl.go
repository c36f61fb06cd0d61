package baseline

import "math"

// stlSeasonal returns the seasonal and trend components of y, a season of
// period rows, by STL (Cleveland, Cleveland, McRae and Terpenning 1990)
// with the settings R's forecast::mstl gives stats::stl for one season:
// a seasonal window of 11 rows and degree 0, a trend window of the
// smallest odd number at least 1.5*period/(1 - 1.5/11) and degree 1, a
// low-pass window of the smallest odd number at least period and degree
// 1, each smoother evaluated every tenth of its window and interpolated
// linearly between, two inner passes and no robustness passes. y holds
// more than two seasons; period is at least 2.
func stlSeasonal(y []float64, period int) (seasonal, trend []float64) {
	n, np := len(y), period
	ns := 11
	nt := nextOdd(int(math.Ceil(1.5 * float64(np) / (1 - 1.5/float64(ns)))))
	nl := nextOdd(np)
	sj, tj, lj := ceilTenth(ns), ceilTenth(nt), ceilTenth(nl)
	trend = make([]float64, n)
	seasonal = make([]float64, n)
	detrended := make([]float64, n)
	cycle := make([]float64, n+2*np)
	low := make([]float64, n)
	for range 2 {
		for i := range y {
			detrended[i] = y[i] - trend[i]
		}
		stlSubseries(detrended, np, ns, sj, cycle)
		lowPass(cycle, np, low)
		smoothed := loessJumps(low, nl, 1, lj)
		for i := range y {
			seasonal[i] = cycle[np+i] - smoothed[i]
			detrended[i] = y[i] - seasonal[i]
		}
		trend = loessJumps(detrended, nt, 1, tj)
	}
	return seasonal, trend
}

// nextOdd returns x, or x+1 if x is even.
func nextOdd(x int) int {
	if x%2 == 0 {
		return x + 1
	}
	return x
}

// ceilTenth is ceiling(w/10), the jump of a smoother of window w.
func ceilTenth(w int) int { return (w + 9) / 10 }

// stlSubseries smooths each cycle-subseries of y (the rows of one
// position in the season) by loess of degree 0 with window ns, extended
// by one value before and after, into out, which holds len(y)+2*np
// values: out[(i+1)*np+j] is the smoothed i-th value of position j.
func stlSubseries(y []float64, np, ns, jump int, out []float64) {
	n := len(y)
	for j := range np {
		k := (n-j-1)/np + 1
		sub := make([]float64, k)
		for i := range sub {
			sub[i] = y[i*np+j]
		}
		sm := loessJumps(sub, ns, 0, jump)
		ext := make([]float64, k+2)
		copy(ext[1:], sm)
		// The values before the first and after the last (x = -1 and k on
		// the subseries' 0-based positions).
		if v, ok := loessAt(sub, ns, 0, -1, 0, min(ns, k)-1); ok {
			ext[0] = v
		} else {
			ext[0] = ext[1]
		}
		if v, ok := loessAt(sub, ns, 0, float64(k), max(0, k-ns), k-1); ok {
			ext[k+1] = v
		} else {
			ext[k+1] = ext[k]
		}
		for m, v := range ext {
			out[m*np+j] = v
		}
	}
}

// lowPass writes into out, len(x)-2*np values, the moving averages of
// lengths np, np and 3 of x in turn.
func lowPass(x []float64, np int, out []float64) {
	a := movingAverage(x, np)
	b := movingAverage(a, np)
	copy(out, movingAverage(b, 3))
}

// movingAverage returns the len(x)-w+1 means of w consecutive values.
func movingAverage(x []float64, w int) []float64 {
	out := make([]float64, len(x)-w+1)
	var s float64
	for i := range w {
		s += x[i]
	}
	out[0] = s / float64(w)
	for i := 1; i < len(out); i++ {
		s += x[i+w-1] - x[i-1]
		out[i] = s / float64(w)
	}
	return out
}

// loessJumps smooths y by loess with window span and degree deg,
// evaluated at every jump-th value (and the last) and interpolated
// linearly between, as STL's smoother does.
func loessJumps(y []float64, span, deg, jump int) []float64 {
	n := len(y)
	ys := make([]float64, n)
	if n < 2 {
		copy(ys, y)
		return ys
	}
	jump = min(jump, n-1)
	half := (span + 1) / 2
	window := func(i int) (int, int) { // 0-based i
		switch {
		case span >= n:
			return 0, n - 1
		case i < half:
			return 0, span - 1
		case i >= n-half:
			return n - span, n - 1
		}
		return i - half + 1, i + span - half
	}
	at := func(i int) float64 {
		l, r := window(i)
		if v, ok := loessAt(y, span, deg, float64(i), l, r); ok {
			return v
		}
		return y[i]
	}
	last := 0
	for i := 0; i < n; i += jump {
		ys[i] = at(i)
		last = i
	}
	if jump > 1 {
		for i := 0; i+jump < n; i += jump {
			delta := (ys[i+jump] - ys[i]) / float64(jump)
			for j := i + 1; j < i+jump; j++ {
				ys[j] = ys[i] + delta*float64(j-i)
			}
		}
		if last != n-1 {
			ys[n-1] = at(n - 1)
			delta := (ys[n-1] - ys[last]) / float64(n-1-last)
			for j := last + 1; j < n-1; j++ {
				ys[j] = ys[last] + delta*float64(j-last)
			}
		}
	}
	return ys
}

// loessAt is the loess estimate at x from the values y[l..r] (positions
// l..r), tricube-weighted by distance over the window's half-width, fitted
// by a constant (deg 0) or a line (deg 1). It reports false when no value
// has weight.
func loessAt(y []float64, span, deg int, x float64, l, r int) (float64, bool) {
	n := len(y)
	h := math.Max(x-float64(l), float64(r)-x)
	if span > n {
		h += float64((span - n) / 2)
	}
	w := make([]float64, r-l+1)
	var sum float64
	for j := l; j <= r; j++ {
		d := math.Abs(float64(j) - x)
		if d <= 0.999*h {
			if d <= 0.001*h {
				w[j-l] = 1
			} else {
				q := d / h
				q = 1 - q*q*q
				w[j-l] = q * q * q
			}
			sum += w[j-l]
		}
	}
	if sum <= 0 {
		return 0, false
	}
	for i := range w {
		w[i] /= sum
	}
	if h > 0 && deg > 0 {
		var a float64
		for j := l; j <= r; j++ {
			a += w[j-l] * float64(j)
		}
		b := x - a
		var c float64
		for j := l; j <= r; j++ {
			c += w[j-l] * (float64(j) - a) * (float64(j) - a)
		}
		if math.Sqrt(c) > 0.001*float64(n-1) {
			b /= c
			for j := l; j <= r; j++ {
				w[j-l] *= b*(float64(j)-a) + 1
			}
		}
	}
	var v float64
	for j := l; j <= r; j++ {
		v += w[j-l] * y[j]
	}
	return v, true
}
