package recommender

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Model is a trained autoencoder: its configuration, the number of items,
// the rating scale of its training data, the ids of its items and users
// when the data had them, and its weights. It marshals to JSON for storage.
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
	Weights []Floats `json:"weights"`
}

// Kind is the method name of the model in Evaluate's results.
const Kind = "autorec"

// Floats is a weight tensor. It marshals to JSON as the base64 of its
// little-endian IEEE 754 values: exact, and about half the size of decimals.
type Floats []float64

// MarshalJSON encodes f as a base64 string.
func (f Floats) MarshalJSON() ([]byte, error) {
	raw := make([]byte, 8*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(v))
	}
	return json.Marshal(raw)
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (f *Floats) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw)%8 != 0 {
		return fmt.Errorf("recommender weights are not base64 of float64 values")
	}
	*f = make(Floats, len(raw)/8)
	for i := range *f {
		(*f)[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return nil
}

// Marshal encodes the model for storage; Unmarshal decodes it.
func (m *Model) Marshal() ([]byte, error) { return json.Marshal(m) }

// Unmarshal decodes a model written by Marshal and checks its shape.
func Unmarshal(data []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("decode recommender model: %w", err)
	}
	if err := m.Config.Validate(); err != nil {
		return nil, fmt.Errorf("decode recommender model: %w", err)
	}
	if err := m.fits(m.Config, m.Items); err != nil {
		return nil, fmt.Errorf("decode recommender model: %w", err)
	}
	return &m, nil
}

// fits reports whether the model is cfg's network over items: the same
// layers and activations, and weights of their shapes.
func (m *Model) fits(cfg Config, items int) error {
	act, out := m.Config.activations()
	wantAct, wantOut := cfg.activations()
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
	return newNet(m.Config, m.Items, m.Weights[0], m.Weights[1], m.Weights[2])
}

// Scores sets dst, one value per item, to the model's predicted rating of
// every item by a user whose ratings are vals of items (item indices, in
// any order, each at most once). It panics if dst does not have Items
// values or an item is out of range. It does not change the model, so
// concurrent calls are safe.
func (m *Model) Scores(items []int32, vals []float32, dst []float64) {
	if len(dst) != m.Items {
		panic(fmt.Sprintf("recommender: Scores into %d values for %d items", len(dst), m.Items))
	}
	n, s, t := m.net(), scale{m.Min, m.Max}, newTrace(m.Config.Hidden)
	t.load(vals, s)
	a := n.encode(items, t.x, t)
	h := len(a)
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: m.Items, Cols: h, Stride: h + 1, Data: n.dec},
		blas64.Vector{N: h, Inc: 1, Data: a}, 0, blas64.Vector{N: m.Items, Inc: 1, Data: dst})
	base := n.base(a)
	for j := range dst {
		dst[j] = s.out(n.out.Apply(dst[j] + n.dec[j*(h+1)+h] + base))
	}
}

// Scored is an item's index and its predicted rating.
type Scored struct {
	Item  int
	Score float64
}

// Recommend returns the k items of the highest predicted ratings for a
// user whose ratings are vals of items, best first, ties to the lower
// index; with excludeSeen the user's own items are left out. It panics as
// Scores does.
func (m *Model) Recommend(items []int32, vals []float32, k int, excludeSeen bool) []Scored {
	k = max(k, 0)
	scores := make([]float64, m.Items)
	m.Scores(items, vals, scores)
	if excludeSeen {
		for _, j := range items {
			scores[j] = math.Inf(-1)
		}
	}
	order := make([]int, 0, m.Items)
	for j, s := range scores {
		if !math.IsInf(s, -1) {
			order = append(order, j)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpDesc(scores[a], scores[b]) })
	out := make([]Scored, 0, min(k, len(order)))
	for _, j := range order[:min(k, len(order))] {
		out = append(out, Scored{Item: j, Score: scores[j]})
	}
	return out
}

// cmpDesc orders greater values first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
