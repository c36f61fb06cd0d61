package recommender

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// Recommend's product over the decoder table reads 8 bytes a weight, and
// at MovieLens-25M's shape waits on memory for most of its time. For the
// ranking objectives it reads a float32 copy of the table instead, half
// the bytes, for every item's output within a bound, and then computes
// exactly, as Scores does, the outputs of the items whose bounds leave
// them a chance of the first k: the k it returns are those of the float64
// outputs, ties as best breaks them. The softmax's normaliser is the sum
// over the float32 outputs, so that a probability may differ from
// Scores' in its last digits: by a relative error of float32's order
// (10⁻⁷ to 10⁻⁶ at 200 hidden units), which the outputs' bound limits. The rating objective's predictions are
// clipped to the rating scale, where many items can tie, each a
// contender; it is scored in float64 only.

// float32Limit is the largest weight or activation the float32 path
// takes; beyond it the model is scored in float64 only.
const float32Limit = 1e15

// serving is what Recommend reads besides the weights, made from them at
// its first call.
type serving struct {
	// dec32 is the decoder table's weights (its rows less their biases)
	// as float32, items x h_L; nil where a weight is not finite or beyond
	// float32Limit.
	dec32 []float32
	// norms are the Euclidean norms of those rows in float64, and bias
	// the rows' biases, in a slice of their own so that reading them does
	// not bring the float64 table's rows into the cache.
	norms, bias []float64
}

// servingTables returns m's float32 tables, making them at the first call.
func (m *Model) servingTables() *serving {
	m.servingOnce.Do(func() {
		n := m.net()
		h := n.sizes[len(n.sizes)-1]
		s := &serving{dec32: make([]float32, m.Items*h), norms: make([]float64, m.Items), bias: make([]float64, m.Items)}
		for j := range m.Items {
			row := n.decRow(int32(j))[:h]
			for i, w := range row {
				if !(math.Abs(w) <= float32Limit) {
					m.serving = &serving{}
					return
				}
				s.dec32[j*h+i] = float32(w)
			}
			s.norms[j], s.bias[j] = floats.Norm(row, 2), n.decRow(int32(j))[h]
		}
		m.serving = s
	})
	return m.serving
}

// recommend32 is Recommend by way of the float32 table (see above), or
// false where that does not apply: the rating objective, no table, an
// activation beyond float32Limit, or k too large a share of the items for
// the bound to save work.
func (m *Model) recommend32(items []int32, vals []float32, k int, excludeSeen bool) ([]Scored, bool) {
	if !m.Config.ranking() || k <= 0 || 16*k > m.Items {
		return nil, false
	}
	tab := m.servingTables()
	if tab.dec32 == nil {
		return nil, false
	}
	n, s, t := m.net(), scale{m.Min, m.Max}, newTrace(m.Config.Hidden)
	t.load(vals, s)
	a := n.encode(items, t.x, t)
	h := len(a)
	a32 := make([]float32, h)
	for i, v := range a {
		if !(math.Abs(v) <= float32Limit) {
			return nil, false
		}
		a32[i] = float32(v)
	}
	// A float32 dot product of h terms is within (h+2)·2⁻²⁴·Σ|wᵢaᵢ| of
	// the exact one, the float64 one within h·2⁻⁵³ of it, and
	// Σ|wᵢaᵢ| ≤ |w|·|a|; slack is twice that, plus room for the rounding
	// of the sums with the biases and for underflow.
	slack := float64(h+4) * 0x1p-23 * floats.Norm(a, 2) * (1 + 0x1p-20)
	base := n.base(a)
	buf, work := m.scoreBuf(), m.scoreBuf()
	defer m.putScoreBuf(buf)
	defer m.putScoreBuf(work)
	z := *buf
	tops := make([]float64, maxChunks)
	chunks(m.Items, func(c, lo, hi int) { tops[c] = tab.outputs(a32, base, z, lo, hi) })
	top := floats.Max(tops)
	norm := normaliser(z, top, *work) // the softmax's, over the float32 outputs
	if excludeSeen {
		for _, j := range items {
			z[j] = math.NaN()
		}
	}
	bound := func(j int) float64 { return slack*tab.norms[j] + 0x1p-50*(math.Abs(z[j])+1) }
	cands := contenders(z, k, bound, *work)
	// The contenders' exact outputs, as Scores computes them.
	exact := make([]float64, 1)
	for i, c := range cands {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: 1, Cols: h, Stride: h + 1, Data: n.dec[c.Item*(h+1):]},
			blas64.Vector{N: h, Inc: 1, Data: a}, 0, blas64.Vector{N: 1, Inc: 1, Data: exact})
		cands[i].Score = math.Exp(exact[0]+(n.dec[c.Item*(h+1)+h]+base)-top) * (1 / norm)
	}
	slices.SortFunc(cands, func(a, b Scored) int {
		switch {
		case a.Score > b.Score || a.Score == b.Score && a.Item < b.Item:
			return -1
		}
		return 1
	})
	return cands[:min(k, len(cands))], true
}

// outputs sets z[lo:hi] to the outputs of items lo to hi by way of the
// float32 table, for the last hidden activation a32 whose base is base,
// and returns the greatest. It takes the items in blocks, so that the
// float32 products need no items-sized buffer.
func (tab *serving) outputs(a32 []float32, base float64, z []float64, lo, hi int) float64 {
	h := len(a32)
	var block [256]float32
	top := math.Inf(-1)
	for at := lo; at < hi; at += len(block) {
		out := block[:min(len(block), hi-at)]
		blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: len(out), Cols: h, Stride: h, Data: tab.dec32[at*h:]},
			blas32.Vector{N: h, Inc: 1, Data: a32}, 0, blas32.Vector{N: len(out), Inc: 1, Data: out})
		for i, v := range out {
			j := at + i
			z[j] = float64(v) + (tab.bias[j] + base)
			top = max(top, z[j])
		}
	}
	return top
}

// normaliser is Σ exp(zⱼ − top) over z, the exponentials in chunks into
// exps, the sum in item order.
func normaliser(z []float64, top float64, exps []float64) float64 {
	chunks(len(z), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			exps[i] = math.Exp(z[i] - top)
		}
	})
	var sum float64
	for _, v := range exps {
		sum += v
	}
	return sum
}

// contenders returns the items of z (approximate outputs, NaN for those
// left out) whose output can be among the k greatest: whose output at the
// top of its bound is at least the k-th greatest at the bottom of theirs.
// The softmax keeps the outputs' order. lows is a buffer of len(z) values.
func contenders(z []float64, k int, bound func(int) float64, lows []float64) []Scored {
	for j, v := range z {
		lows[j] = v - bound(j) // NaN where v is
	}
	kept := best(lows, k)
	if len(kept) == 0 {
		return nil
	}
	floor := kept[len(kept)-1].Score
	var out []Scored
	for j, v := range z {
		if v+bound(j) >= floor {
			out = append(out, Scored{Item: j})
		}
	}
	return out
}
