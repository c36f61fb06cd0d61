package recommender

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// Model is a trained autoencoder: its configuration, the number of items,
// the rating scale of its training data, the ids of its items and users
// when the data had them, and its weights. Marshal encodes it for storage.
type Model struct {
	Config Config `json:"config"`
	Items  int    `json:"items"`
	// Min and Max are the least and greatest training rating: a rating r
	// goes in as (r−Min)/(Max−Min) and an output y comes out as
	// Min + (Max−Min)·y, clipped to [Min, Max].
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	ItemIDs *IDs    `json:"item_ids,omitempty"`
	UserIDs *IDs    `json:"user_ids,omitempty"`
	// Weights are the encoder table, the dense part and the decoder
	// table, laid out as the package comment describes.
	Weights []Floats `json:"-"`

	// bufs keeps the items-sized buffers of Recommend and Similar
	// between calls.
	bufs sync.Pool
	// serving is made from the weights at Recommend's first call (see
	// servingTables).
	servingOnce sync.Once
	serving     *serving
}

// Kind is the method name of the model in Evaluate's results.
const Kind = "autorec"

// Floats is a weight tensor.
type Floats []float64

// fits reports whether the model is cfg's network over items: the same
// layers and activations, and weights of their shapes.
func (m *Model) fits(cfg Config, items int) error {
	act, out := m.Config.activations()
	wantAct, wantOut := cfg.activations()
	if m.Config.ranking() != cfg.ranking() || m.Config.vae() != cfg.vae() {
		return fmt.Errorf("the recommender model was trained for the %s objective, not %s", m.Config.objective(), cfg.objective())
	}
	if m.Items != items || !slices.Equal(m.Config.Hidden, cfg.Hidden) || act != wantAct || out != wantOut {
		return fmt.Errorf("the recommender model has %d items, hidden layers %v, activations %v and %v, not %d, %v, %v and %v",
			m.Items, m.Config.Hidden, act, out, items, cfg.Hidden, wantAct, wantOut)
	}
	enc, dense, dec := shapes(cfg, items)
	if len(m.Weights) != 3 || len(m.Weights[0]) != enc || len(m.Weights[1]) != dense || len(m.Weights[2]) != dec {
		return fmt.Errorf("the recommender model's weights are not those of %d items and hidden layers %v", items, cfg.Hidden)
	}
	return nil
}

// net is the model's network over its own weights, not copied.
func (m *Model) net() *net {
	n := newNet(m.Config, m.Items, m.Weights[0], m.Weights[1], m.Weights[2])
	n.cut = scale{m.Min, m.Max}.in(m.Config.Relevant)
	return n
}

// Scores sets dst, one value per item, to the model's predicted rating of
// every item by a user whose ratings are vals of items (item indices, in
// any order, each at most once); for the ranking objective, to the
// probability the model gives each item of being the user's next
// interaction (the softmax of the outputs over every item, the user's
// own included). The items are scored in chunks on several goroutines
// (see chunks), each value exactly as one pass over them gives it. It
// panics if dst does not have Items values or an item is out of range. It
// does not change the model, so concurrent calls are safe.
func (m *Model) Scores(items []int32, vals []float32, dst []float64) {
	if len(dst) != m.Items {
		panic(fmt.Sprintf("recommender: Scores into %d values for %d items", len(dst), m.Items))
	}
	n, s, t := m.net(), scale{m.Min, m.Max}, newTrace(m.Config.Hidden)
	t.load(vals, s)
	top := n.outputs(n.encode(items, t.x, t), s, dst)
	if n.ranking {
		softmaxFrom(dst, top)
	}
}

// Scored is an item's index and its predicted rating.
type Scored struct {
	Item  int
	Score float64
}

// Recommend returns the k items of the highest predicted ratings for a
// user whose ratings are vals of items, best first, ties to the lower
// index; with excludeSeen the user's own items are left out. The items
// and their order are those of Scores' values; the scores are Scores',
// those of the ranking objective to float32's relative precision (see
// recommend32). It panics as Scores does. It keeps a float32 copy of
// the decoder table, made at its first call: the weights must not change
// after it.
func (m *Model) Recommend(items []int32, vals []float32, k int, excludeSeen bool) []Scored {
	if recs, ok := m.recommend32(items, vals, k, excludeSeen); ok {
		return recs
	}
	buf := m.scoreBuf()
	defer m.putScoreBuf(buf)
	scores := *buf
	m.Scores(items, vals, scores)
	if excludeSeen {
		for _, j := range items {
			scores[j] = math.NaN()
		}
	}
	return best(scores, k)
}

// best returns the k items of the highest scores, best first, ties to the
// lower index, leaving out NaN scores. It keeps the k best in a heap, so
// it costs about items·log k, not a sort of every item.
func best(scores []float64, k int) []Scored {
	k = min(max(k, 0), len(scores))
	// worse reports whether a ranks below b.
	worse := func(a, b Scored) bool { return a.Score < b.Score || a.Score == b.Score && a.Item > b.Item }
	h := make([]Scored, 0, k) // a heap whose root is the worst kept
	down := func(i int) {
		for {
			l, w := 2*i+1, i
			if l < len(h) && worse(h[l], h[w]) {
				w = l
			}
			if l+1 < len(h) && worse(h[l+1], h[w]) {
				w = l + 1
			}
			if w == i {
				return
			}
			h[i], h[w] = h[w], h[i]
			i = w
		}
	}
	for j, s := range scores {
		c := Scored{Item: j, Score: s}
		switch {
		case math.IsNaN(s) || k == 0:
		case len(h) < k:
			h = append(h, c)
			for i := len(h) - 1; i > 0 && worse(h[i], h[(i-1)/2]); i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case worse(h[0], c):
			h[0] = c
			down(0)
		}
	}
	slices.SortFunc(h, func(a, b Scored) int {
		if worse(b, a) {
			return -1
		}
		return 1
	})
	return h
}
