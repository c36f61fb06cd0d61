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
// weights are zero scores 0 against every item. Each item's embedding is
// made and scored in turn, in chunks of items at once (see chunks), not
// kept. It panics if item is out of range.
func (m *Model) Similar(item, k int) []Scored {
	if item < 0 || item >= m.Items {
		panic(fmt.Sprintf("recommender: Similar of item %d of %d", item, m.Items))
	}
	n := m.net()
	h := n.sizes[len(n.sizes)-1]
	shared := n.shared()[:h]
	x := make([]float64, h)
	floats.AddTo(x, shared, n.decRow(int32(item))[:h])
	norm := floats.Norm(x, 2)
	buf := m.scoreBuf()
	defer m.putScoreBuf(buf)
	scores := *buf
	chunks(m.Items, func(_, lo, hi int) {
		row := make([]float64, h)
		for j := lo; j < hi; j++ {
			floats.AddTo(row, shared, n.decRow(int32(j))[:h])
			scores[j] = 0
			if d := norm * floats.Norm(row, 2); d > 0 {
				scores[j] = floats.Dot(x, row) / d
			}
		}
	})
	scores[item] = math.NaN()
	return best(scores, k)
}
