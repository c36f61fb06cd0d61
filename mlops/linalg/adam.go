package linalg

import "math"

// Adam is the Adam optimiser as PyTorch implements it, without weight
// decay or AMSGrad. At step t (from 1), for each weight w with gradient g:
//
//	m ← β1·m + (1−β1)·g
//	v ← β2·v + (1−β2)·g²
//	w ← w − (LR/(1−β1ᵗ)) · m / (√v/√(1−β2ᵗ) + Eps)
//
// An Adam holds no state: the caller keeps the moments and the step
// count, and At gives the step that applies them.
type Adam struct {
	LR, Beta1, Beta2, Eps float64
}

// NewAdam returns an Adam with learning rate lr and PyTorch's defaults
// β1 = 0.9, β2 = 0.999 and Eps = 1e-8.
func NewAdam(lr float64) Adam {
	return Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
}

// AdamStep is Adam at one step count, with its bias corrections computed
// once for every weight it steps.
type AdamStep struct {
	Adam
	size        float64 // LR/(1−β1ᵗ)
	bc2, invBC2 float64 // √(1−β2ᵗ) and its reciprocal
}

// At returns a's step number t, which must be at least 1.
func (a Adam) At(t int) AdamStep {
	bc2 := math.Sqrt(1 - math.Pow(a.Beta2, float64(t)))
	return AdamStep{Adam: a, size: a.LR / (1 - math.Pow(a.Beta1, float64(t))), bc2: bc2, invBC2: 1 / bc2}
}

// Dense steps the weights w with gradient g and the float64 moments m and
// v, every weight of w, dividing √v by √(1−β2ᵗ). m, v and g must be at
// least as long as w.
func (s *AdamStep) Dense(w, m, v, g []float64) {
	m, v, g = m[:len(w)], v[:len(w)], g[:len(w)]
	b1, b2, size, bc2, eps := s.Beta1, s.Beta2, s.size, s.bc2, s.Eps
	for j := range w {
		m[j] = b1*m[j] + (1-b1)*g[j]
		v[j] = b2*v[j] + (1-b2)*g[j]*g[j]
		w[j] -= size * m[j] / (math.Sqrt(v[j])/bc2 + eps)
	}
}

// Sparse steps the weights w with gradient g and the moments mv (m and v
// of w[i] at mv[2i] and mv[2i+1]), multiplying √v by 1/√(1−β2ᵗ).
// Stepping only the rows of a table that a batch touches, each with its
// own moments, is lazy Adam (PyTorch's SparseAdam, TensorFlow's
// LazyAdam): a row that no batch touches keeps its weights and moments.
//
// The moments are float32 (the arithmetic is float64): a step over a
// batch's table rows is bound by memory traffic, which this cuts from 56
// to 40 bytes a weight, and the moments take half the memory. Sparse and
// Dense may differ in the last bit from the first step on (the rounded
// moments, and a multiplication where Dense divides); each model keeps
// the form its results were pinned with. w must be at least as long as g
// and mv twice as long.
func (s *AdamStep) Sparse(w []float64, mv []float32, g []float64) {
	w, mv = w[:len(g)], mv[:2*len(g)]
	b1, b2, size, invBC2, eps := s.Beta1, s.Beta2, s.size, s.invBC2, s.Eps
	for i, gi := range g {
		m := b1*float64(mv[2*i]) + (1-b1)*gi
		v := b2*float64(mv[2*i+1]) + (1-b2)*gi*gi
		mv[2*i], mv[2*i+1] = float32(m), float32(v)
		w[i] -= size * m / (math.Sqrt(v)*invBC2 + eps)
	}
}

// SparseMoments returns zero moments for n weights, laid out as Sparse
// reads them.
func SparseMoments(n int) []float32 { return make([]float32, 2*n) }
