package baseline

import "math"

// The settings of bfgs, those R's optim gives its "BFGS" method by
// default: at most 100 iterations, relative tolerance 1e-8 on the
// objective, and central differences of step 1e-3 for the gradient.
const (
	bfgsMaxIter = 100
	bfgsRelTol  = 1e-8
	bfgsStep    = 1e-3
)

// bfgs minimises f from x0 by the variable metric method with a
// backtracking line search (Nash, Compact Numerical Methods, algorithm
// 21, the method of R's optim "BFGS"), the gradient from grad, or taken
// by central differences when grad is nil. It returns the best point
// found, its value, and whether it converged within bfgsMaxIter
// iterations. f may return +Inf where it is not defined; the search backs
// off from such points.
func bfgs(f func([]float64) float64, grad func(x, g []float64), x0 []float64) (x []float64, fx float64, converged bool) {
	if grad == nil {
		grad = func(x, g []float64) { gradient(f, x, g) }
	}
	n := len(x0)
	b := append([]float64(nil), x0...)
	fmin := f(b)
	if n == 0 || math.IsInf(fmin, 0) || math.IsNaN(fmin) {
		return b, fmin, n == 0
	}
	g, c, t, prev, bx := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	grad(b, g)
	h := identity(n)
	gradCount, last, iter := 1, 1, 0
	for {
		if last == gradCount {
			h = identity(n)
		}
		copy(prev, b)
		copy(c, g)
		var proj float64
		for i := range t {
			t[i] = 0
			for j := range g {
				t[i] -= h[i*n+j] * g[j]
			}
			proj += t[i] * g[i]
		}
		same := 0
		if proj < 0 {
			var fx, step float64
			same, fx, step = lineSearch(f, prev, t, b, fmin, proj)
			if math.Abs(fx-fmin) <= bfgsRelTol*(math.Abs(fmin)+bfgsRelTol) {
				same, fmin = n, math.Min(fmin, fx)
				if fx > fmin {
					copy(b, prev)
				}
			}
			if same < n {
				fmin = fx
				grad(b, g)
				gradCount++
				iter++
				if !bfgsUpdate(h, t, g, c, bx, step) {
					last = gradCount
				}
			} else if last < gradCount {
				same, last = 0, gradCount
			}
		} else {
			same = 0
			if last == gradCount {
				same = n
			} else {
				last = gradCount
			}
		}
		if iter >= bfgsMaxIter {
			return b, fmin, false
		}
		if gradCount-last > 2*n {
			last = gradCount
		}
		if same == n && last == gradCount {
			return b, fmin, true
		}
	}
}

// lineSearch backs off along the direction t from prev, writing each
// point tried into b, from step 1 by factors of 0.2 until the value falls
// by at least 1e-4 of what the slope proj predicts (the Armijo
// condition) or the step no longer moves any coordinate. It returns how
// many coordinates the last step left unchanged (len(b) when none moved),
// the value at b, or fmin if none was computed, and the step.
func lineSearch(f func([]float64) float64, prev, t, b []float64, fmin, proj float64) (same int, fx, step float64) {
	const acctol, stepredn, reltest = 1e-4, 0.2, 10.0
	step, fx = 1.0, fmin
	for {
		same = 0
		for i := range b {
			b[i] = prev[i] + step*t[i]
			if reltest+prev[i] == reltest+b[i] {
				same++
			}
		}
		if same == len(b) {
			return same, fx, step
		}
		fx = f(b)
		if !math.IsNaN(fx) && !math.IsInf(fx, 0) && fx <= fmin+proj*step*acctol {
			return same, fx, step
		}
		step *= stepredn
	}
}

// bfgsUpdate applies the BFGS update to the inverse Hessian h (n x n)
// for the step step*t and the change of gradient g-c; scratch is n
// values. It reports false, leaving h alone, when the curvature along the
// step is not positive.
func bfgsUpdate(h, t, g, c, scratch []float64, step float64) bool {
	n := len(t)
	var d1 float64
	for i := range t {
		t[i] *= step
		c[i] = g[i] - c[i]
		d1 += t[i] * c[i]
	}
	if d1 <= 0 {
		return false
	}
	var d2 float64
	for i := range scratch {
		scratch[i] = 0
		for j := range c {
			scratch[i] += h[i*n+j] * c[j]
		}
		d2 += scratch[i] * c[i]
	}
	d2 = 1 + d2/d1
	for i := range t {
		for j := range t {
			h[i*n+j] += (d2*t[i]*t[j] - scratch[i]*t[j] - t[i]*scratch[j]) / d1
		}
	}
	return true
}

// gradient writes into g the central-difference gradient of f at x.
func gradient(f func([]float64) float64, x, g []float64) {
	for i := range x {
		v := x[i]
		x[i] = v + bfgsStep
		up := f(x)
		x[i] = v - bfgsStep
		down := f(x)
		x[i] = v
		g[i] = (up - down) / (2 * bfgsStep)
	}
}

// identity returns the n x n identity matrix, row-major.
func identity(n int) []float64 {
	h := make([]float64, n*n)
	for i := range n {
		h[i*n+i] = 1
	}
	return h
}
