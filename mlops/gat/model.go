package gat

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// Model is a trained network: its configuration, the number of entities
// it was trained on, and its weights. It marshals to JSON for storage.
type Model struct {
	Config   Config      `json:"config"`
	Entities int         `json:"entities"`
	Weights  [][]float64 `json:"weights"` // one slice per parameter, in Net.Params order
	// Kept is the epoch whose weights these are (0: the untrained network).
	Kept int `json:"kept"`
	// Anchor is what the network's output is added to, fitted; nil for a
	// network that is not anchored or is anchored to the last value.
	Anchor *Anchor `json:"anchor,omitempty"`
	// Sibling, if not nil, is the other network of the run that trained
	// this one beside its twin (see Config.NoGraph): the network without
	// the graph when this one has it, the network with it otherwise. It
	// shares this model's configuration (but NoGraph) and anchor, so only
	// its weights are stored.
	Sibling *Sibling `json:"sibling,omitempty"`

	// score is the kept epoch's selection score, the validation MSE at
	// the horizon (training MSE without validation); set by training,
	// not stored.
	score  float64
	scored bool
	// predicted, if not nil, holds the model's predictions of the samples
	// of the matrix it was trained on, kept by training (not stored).
	predicted *predictions
}

func newModel(cfg Config, m series.Matrix, net *Net, anchor *Anchor, epoch int) *Model {
	model := &Model{Config: cfg, Entities: m.N, Kept: epoch, Anchor: anchor}
	for _, p := range net.Params() {
		model.Weights = append(model.Weights, append([]float64(nil), p.W.RawMatrix().Data...))
	}
	return model
}

// Sibling is the weights of a model's other network (see Model.Sibling).
type Sibling struct {
	NoGraph bool        `json:"no_graph"`
	Kept    int         `json:"kept"`
	Weights [][]float64 `json:"weights"`
}

// Score is the selection score of the kept epoch: its validation MSE at
// the configured horizon, or its training MSE without validation. It is
// known only for a model Train returned (NaN otherwise).
func (m *Model) Score() float64 {
	if !m.scored {
		return math.NaN()
	}
	return m.score
}

// WithSibling returns model, the run's chosen network, with other, the
// run's other network, as its Sibling. other must have model's
// configuration but for NoGraph.
func WithSibling(model, other *Model) *Model {
	out := *model
	out.Sibling = &Sibling{NoGraph: other.Config.NoGraph, Kept: other.Kept, Weights: other.Weights}
	return &out
}

// SiblingModel is the model's Sibling as a model of its own, nil without one.
func (m *Model) SiblingModel() *Model {
	if m.Sibling == nil {
		return nil
	}
	cfg := m.Config
	cfg.NoGraph = m.Sibling.NoGraph
	return &Model{Config: cfg, Entities: m.Entities, Weights: m.Sibling.Weights, Kept: m.Sibling.Kept, Anchor: m.Anchor}
}

// MethodNoGraph names the network without the graph among the methods
// (see Methods); MethodGraph the network with it, when the version's
// network is the one without.
const (
	MethodNoGraph = "gat_no_graph"
	MethodGraph   = "gat_graph"
)

// net rebuilds the network with the model's weights.
func (m *Model) net() (*Net, error) {
	net := newNet(m.Config, rand.New(rand.NewPCG(0, 0)))
	if len(net.Params()) != len(m.Weights) {
		return nil, fmt.Errorf("gat model has %d weight tensors, the network %d", len(m.Weights), len(net.Params()))
	}
	for i, p := range net.Params() {
		data := p.W.RawMatrix().Data
		if len(data) != len(m.Weights[i]) {
			return nil, fmt.Errorf("gat model tensor %s has %d values, want %d", p.Name, len(m.Weights[i]), len(data))
		}
		copy(data, m.Weights[i])
	}
	return net, nil
}

// newSampler returns a sampler of x for the model's configuration and
// anchor; an anchor that does not decode is an error.
func (m *Model) newSampler(x series.Matrix) (sampler, error) {
	f, err := m.Anchor.forecaster()
	return newSampler(x, m.Config, f, nil, 0), err
}

// prepared builds the network and a sampler of x once, for many predictions.
func (m *Model) prepared(x series.Matrix) (*Net, *sampler, error) {
	if x.N != m.Entities {
		return nil, nil, fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	net, err := m.net()
	if err != nil {
		return nil, nil, err
	}
	s, err := m.newSampler(x)
	if p := m.predicted; p != nil && len(x.Values) > 0 && &x.Values[0] == p.data && x.T == p.from+len(p.values)/max(p.n, 1) &&
		m.Config.Neighbors == p.cfg.Neighbors && m.Config.Window == p.cfg.Window {
		s.graphs = p.graphs // the graphs of the matrix the model was trained on
	}
	return net, &s, err
}

// Predict returns the model's prediction of row t of x for every entity,
// from the rows before t.
func (m *Model) Predict(x series.Matrix, t int, dst []float64) error {
	net, s, err := m.prepared(x)
	if err != nil {
		return err
	}
	pred, _ := s.predict(net, t)
	for i := range x.N {
		dst[i] = pred.At(i, 0)
	}
	return nil
}

// PredictRows returns the model's prediction of each row t in rows of x,
// every entity, from the rows before t. It builds the network once per
// worker, splits the rows over Config.Workers goroutines and computes the
// anchor's forecasts in one pass, so it is the way to predict many rows;
// the predictions do not depend on the number of workers.
func (m *Model) PredictRows(x series.Matrix, rows []int) ([][]float64, error) {
	if err := series.CheckSamples(x, m.Config.Span(), rows); err != nil {
		return nil, err
	}
	if x.N != m.Entities {
		return nil, fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	return m.oneStep(x, rows, m.Config.Workers)
}

// Forecast rolls the model forward steps rows past the end of x, feeding
// each prediction back as the next row's input; row k of the result is
// step k+1.
func (m *Model) Forecast(x series.Matrix, steps int) ([][]float64, error) {
	if x.N != m.Entities {
		return nil, fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	f, err := m.Forecaster()
	if err != nil {
		return nil, err
	}
	out := baseline.Rows(steps, x.N)
	f.Forecast(x, x.T, out)
	return out, nil
}

// MSE is the mean squared error of the model over the samples (target rows) of x.
func (m *Model) MSE(x series.Matrix, samples []int) (float64, error) {
	if err := series.CheckSamples(x, m.Config.Span(), samples); err != nil {
		return 0, err
	}
	net, s, err := m.prepared(x)
	if err != nil {
		return 0, err
	}
	return s.sse(net, samples, nil) / float64(len(samples)*x.N), nil
}

// Marshal encodes the model for storage; Unmarshal decodes it.
func (m *Model) Marshal() ([]byte, error) { return json.Marshal(m) }

// Unmarshal decodes a model written by Marshal.
func Unmarshal(data []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("decode gat model: %w", err)
	}
	return &m, nil
}
