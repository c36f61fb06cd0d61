package recommender

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Similar returns the k items whose decoder embeddings are closest to
// item's by cosine similarity, best first, ties to the lower index, item
// itself left out: "people who liked this also liked". An item's decoder
// embedding is its output weights from the last hidden layer: the shared
// row's plus its own offsets (see net). On MovieLens small the whole
// weights put The Empire Strikes Back's neighbours Return of the Jedi
// first and A New Hope tenth; the offsets alone, or the weights less
// their mean over the items, leave A New Hope among the first ten of
// neither film, nor any Star Wars film among A New Hope's. An item whose
// weights are zero scores 0 against every item. It panics if item is out
// of range.
func (m *Model) Similar(item, k int) []Scored {
	if item < 0 || item >= m.Items {
		panic(fmt.Sprintf("recommender: Similar of item %d of %d", item, m.Items))
	}
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
