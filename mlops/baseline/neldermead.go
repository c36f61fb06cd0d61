package baseline

import "math"

// nelderMeadBig stands in for a value that is not finite, as in R's optim.
const nelderMeadBig = 1e35

// nelderMead minimises f from x0 by the Nelder-Mead simplex search of
// Nash, Compact Numerical Methods (1990), the algorithm of R's optim
// method "Nelder-Mead" that forecast::ets runs: reflection 1, contraction
// 0.5, expansion 2, an initial simplex of steps of a tenth of the largest
// |x0[i]| (0.1 if all are 0) along each axis, and a stop once the values
// at the simplex's vertices lie within reltol*(|f(x0)| + reltol) of each
// other, a shrink fails to shrink the simplex, or more than maxEval
// values have been computed. Values that are not finite count as 1e35.
// It returns the lowest vertex of the last ordering and its value, or
// ok false when f(x0) is not finite.
//
// When hint is not nil, each step first passes it the three points the
// step may evaluate after the reflection, whatever its value: the
// expansion, the contraction towards the reflection and that towards the
// highest vertex, so that f may compute them ahead. The search itself is
// the same.
func nelderMead(f func([]float64) float64, hint func(exp, out, in []float64), x0 []float64, reltol float64, maxEval int) (x []float64, fx float64, ok bool) {
	n := len(x0)
	evals := 0
	eval := func(v []float64) float64 {
		evals++
		if y := f(v); !math.IsInf(y, 0) && !math.IsNaN(y) {
			return y
		}
		return nelderMeadBig
	}
	f0 := f(x0)
	evals++
	if math.IsInf(f0, 0) || math.IsNaN(f0) {
		return nil, f0, false
	}
	convtol := reltol * (math.Abs(f0) + reltol)
	verts, vals, size := nelderMeadSimplex(x0)
	vals[0] = f0
	oldsize := size
	centroid, trial, other := make([]float64, n), make([]float64, n), make([]float64, n)
	var ahead [3][]float64
	if hint != nil {
		ahead = [3][]float64{make([]float64, n), make([]float64, n), make([]float64, n)}
	}
	low, calc := 0, true
	for {
		if calc {
			for j := range verts {
				if j != low {
					vals[j] = eval(verts[j])
				}
			}
			calc = false
		}
		hi := low
		for j := range verts {
			if j != low {
				if vals[j] < vals[low] {
					low = j
				}
				if vals[j] > vals[hi] {
					hi = j
				}
			}
		}
		if vals[hi] <= vals[low]+convtol {
			break
		}
		for i := range centroid {
			sum := -verts[hi][i]
			for _, v := range verts {
				sum += v[i]
			}
			centroid[i] = sum / float64(n)
			trial[i] = 2*centroid[i] - verts[hi][i]
		}
		if hint != nil {
			for i := range trial {
				ahead[0][i] = 2*trial[i] - centroid[i]
				ahead[1][i] = 0.5*trial[i] + 0.5*centroid[i]
				ahead[2][i] = 0.5*verts[hi][i] + 0.5*centroid[i]
			}
			hint(ahead[0], ahead[1], ahead[2])
		}
		vr := eval(trial)
		if vr < vals[low] {
			for i := range other {
				other[i] = 2*trial[i] - centroid[i]
			}
			if ve := eval(other); ve < vr {
				copy(verts[hi], other)
				vals[hi] = ve
			} else {
				copy(verts[hi], trial)
				vals[hi] = vr
			}
		} else {
			vh := vals[hi]
			if vr < vh {
				copy(verts[hi], trial)
				vals[hi] = vr
			}
			for i := range other {
				other[i] = 0.5*verts[hi][i] + 0.5*centroid[i]
			}
			if vc := eval(other); vc < vals[hi] {
				copy(verts[hi], other)
				vals[hi] = vc
			} else if vr >= vh {
				calc, size = true, 0
				for j, v := range verts {
					if j != low {
						for i := range v {
							v[i] = 0.5*(v[i]-verts[low][i]) + verts[low][i]
							size += math.Abs(v[i] - verts[low][i])
						}
					}
				}
				if size >= oldsize {
					break
				}
				oldsize = size
			}
		}
		if evals > maxEval {
			break
		}
	}
	return verts[low], vals[low], true
}

// nelderMeadSimplex returns the initial simplex around x0, its values
// (to be computed) and its size, the sum of its steps.
func nelderMeadSimplex(x0 []float64) (verts [][]float64, vals []float64, size float64) {
	step := 0.0
	for _, v := range x0 {
		step = max(step, 0.1*math.Abs(v))
	}
	if step == 0 {
		step = 0.1
	}
	verts = make([][]float64, len(x0)+1)
	verts[0] = append([]float64(nil), x0...)
	for j := 1; j <= len(x0); j++ {
		v := append([]float64(nil), x0...)
		try := step
		for v[j-1] == x0[j-1] {
			v[j-1] = x0[j-1] + try
			try *= 10
		}
		size += try
		verts[j] = v
	}
	return verts, make([]float64, len(verts)), size
}
