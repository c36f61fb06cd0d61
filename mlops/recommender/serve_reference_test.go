package recommender

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// ReferenceScores is Model.Scores computed the straightforward way: one
// matrix-vector product over every item's decoder row, then the softmax
// for the ranking objective, on one goroutine and into a fresh buffer.
func (m *Model) ReferenceScores(items []int32, vals []float32) []float64 {
	n, s, t := m.net(), scale{m.Min, m.Max}, newTrace(m.Config.Hidden)
	t.load(vals, s)
	a := n.encode(items, t.x, t)
	h := len(a)
	dst := make([]float64, m.Items)
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: m.Items, Cols: h, Stride: h + 1, Data: n.dec},
		blas64.Vector{N: h, Inc: 1, Data: a}, 0, blas64.Vector{N: m.Items, Inc: 1, Data: dst})
	base := n.base(a)
	for j := range dst {
		dst[j] += n.dec[j*(h+1)+h] + base
		if !n.ranking {
			dst[j] = s.out(n.out.Apply(dst[j]))
		}
	}
	if n.ranking {
		softmax(dst)
	}
	return dst
}

// ReferenceRecommend is Model.Recommend as it was before serving scored
// in chunks: ReferenceScores into a fresh buffer, then best.
func (m *Model) ReferenceRecommend(items []int32, vals []float32, k int, excludeSeen bool) []Scored {
	scores := m.ReferenceScores(items, vals)
	if excludeSeen {
		for _, j := range items {
			scores[j] = math.NaN()
		}
	}
	return best(scores, k)
}

// ReferenceSimilar is Model.Similar as it was before it scored in
// chunks: every item's embedding and norm made first, then the cosines.
func (m *Model) ReferenceSimilar(item, k int) []Scored {
	n := m.net()
	h := n.sizes[len(n.sizes)-1]
	emb := make([]float64, m.Items*h)
	norms := make([]float64, m.Items)
	for j := range m.Items {
		row := emb[j*h : (j+1)*h]
		floats.AddTo(row, n.shared()[:h], n.decRow(int32(j))[:h])
		norms[j] = floats.Norm(row, 2)
	}
	x := emb[item*h : (item+1)*h]
	scores := make([]float64, m.Items)
	for j := range scores {
		if d := norms[item] * norms[j]; d > 0 {
			scores[j] = floats.Dot(x, emb[j*h:(j+1)*h]) / d
		}
	}
	scores[item] = math.NaN()
	return best(scores, k)
}
