package series

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// Windows are the entities' windows before one row, each centred on its
// mean and scaled to unit norm, so that the Pearson correlation of two
// entities is the dot product of their rows. They give a correlation graph
// that keeps a few sources per target in O(N) memory, where Correlation
// writes all N x N correlations.
type Windows struct {
	n, window int
	z         []float64 // row-major n x window
	strength  []float64 // scratch of Strongest: |correlation| of each source
}

// Set fills w with the windows of rows t-window..t-1 of m, reusing w's
// storage. It panics if those rows do not all exist; t may be m.T.
func (w *Windows) Set(m Matrix, t, window int) {
	checkWindow(m, t, window)
	w.n, w.window = m.N, window
	if cap(w.z) < m.N*window {
		w.z = make([]float64, m.N*window)
	}
	w.z = w.z[:m.N*window]
	standardize(m, t, window, w.z)
}

// N is the number of entities.
func (w *Windows) N() int { return w.n }

// Corr is the correlation of entities i and j as Correlation gives it:
// the dot product of their rows clamped to [-1, 1], and 1 when i == j.
// For windows of up to 64 rows it is bit for bit Correlation's value,
// which takes each product of two rows as one floats.Dot; for longer
// ones it may differ in the last bits, where gonum's product splits it.
func (w *Windows) Corr(i, j int) float64 {
	if i == j {
		return 1
	}
	return max(-1, min(1, floats.Dot(w.row(i), w.row(j))))
}

func (w *Windows) row(i int) []float64 { return w.z[i*w.window : (i+1)*w.window : (i+1)*w.window] }

// Strongest appends to buf, in increasing order, the keep sources i != j
// with the largest |Corr(i, j)|, chosen as Edges chooses them: ties go to
// the lower index and NaN ranks below every number. It costs O(N window +
// N log keep).
func (w *Windows) Strongest(buf []int32, j, keep int) []int32 {
	if uint(j) >= uint(w.n) {
		panic(fmt.Sprintf("series: entity %d out of range for %d", j, w.n))
	}
	w.strength = resizedFloats(w.strength, w.n)
	zj := w.row(j)
	for i := range w.n {
		w.strength[i] = rank(max(-1, min(1, floats.Dot(w.row(i), zj))))
	}
	return strongestOf(buf, w.strength, j, keep)
}

// rank is how strongly a correlation ties two entities: its magnitude,
// and -1 for NaN, below every magnitude.
func rank(c float64) float64 {
	if math.IsNaN(c) {
		return -1
	}
	return math.Abs(c)
}

// strongestOf appends to buf, in increasing order, the keep indices i != j
// of strength with the largest strength, ties going to the lower index.
// It keeps the chosen indices in a heap whose root is the weakest of them
// (of equal strengths, the highest index), so that a candidate costs one
// comparison unless it displaces the root.
func strongestOf(buf []int32, strength []float64, j, keep int) []int32 {
	at := len(buf)
	if keep >= len(strength)-1 {
		for i := range len(strength) {
			if i != j {
				buf = append(buf, int32(i))
			}
		}
		return buf
	}
	if keep <= 0 {
		return buf
	}
	h := heap{idx: buf[at:at], s: strength}
	for i := range len(strength) {
		switch {
		case i == j:
		case len(h.idx) < keep:
			h.push(int32(i))
		case strength[i] > strength[h.idx[0]]:
			// Scanned in increasing order, i loses every tie with a kept index.
			h.idx[0] = int32(i)
			h.down(0)
		}
	}
	slices.Sort(h.idx)
	return append(buf[:at], h.idx...) // in place unless the heap outgrew buf

}

// heap is a binary heap of indices into s whose root is the weakest.
type heap struct {
	idx []int32
	s   []float64
}

// weaker reports whether index a ranks below index b.
func (h *heap) weaker(a, b int32) bool {
	return h.s[a] < h.s[b] || h.s[a] == h.s[b] && a > b
}

func (h *heap) push(i int32) {
	h.idx = append(h.idx, i)
	for c := len(h.idx) - 1; c > 0; {
		p := (c - 1) / 2
		if !h.weaker(h.idx[c], h.idx[p]) {
			break
		}
		h.idx[c], h.idx[p] = h.idx[p], h.idx[c]
		c = p
	}
}

func (h *heap) down(p int) {
	for {
		c := 2*p + 1
		if c >= len(h.idx) {
			return
		}
		if r := c + 1; r < len(h.idx) && h.weaker(h.idx[r], h.idx[c]) {
			c = r
		}
		if !h.weaker(h.idx[c], h.idx[p]) {
			return
		}
		h.idx[c], h.idx[p] = h.idx[p], h.idx[c]
		p = c
	}
}

// resizedFloats returns buf with length n, reallocated only when short.
func resizedFloats(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}
