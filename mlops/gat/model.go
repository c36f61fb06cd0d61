package gat

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/mallard/mallard/mlops/series"
)

// Model is a trained network: its configuration, the number of entities
// it was trained on, and its weights. It marshals to JSON for storage.
type Model struct {
	Config   Config      `json:"config"`
	Entities int         `json:"entities"`
	Weights  [][]float64 `json:"weights"` // one slice per parameter, in Net.Params order
}

func newModel(cfg Config, m series.Matrix, net *Net) *Model {
	model := &Model{Config: cfg, Entities: m.N}
	for _, p := range net.Params() {
		model.Weights = append(model.Weights, append([]float64(nil), p.W.RawMatrix().Data...))
	}
	return model
}

// net rebuilds the network with the model's weights.
func (m *Model) net() (*Net, error) {
	net := newNet(m.Config.Window, m.Config.Hidden, m.Config.Heads, rand.New(rand.NewPCG(0, 0)))
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

// Predict returns the model's prediction of row t of x for every entity,
// from the window of rows before t.
func (m *Model) Predict(x series.Matrix, t int, dst []float64) error {
	if x.N != m.Entities {
		return fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	net, err := m.net()
	if err != nil {
		return err
	}
	s := newSampler(x, m.Config.Window, m.Config.Neighbors)
	pred, _ := s.predict(net, t)
	for i := range x.N {
		dst[i] = pred.At(i, 0)
	}
	return nil
}

// PredictRows returns the model's prediction of each row t in rows of x,
// every entity, from the window of rows before t; it builds the network
// once, so it is the way to predict many rows.
func (m *Model) PredictRows(x series.Matrix, rows []int) ([][]float64, error) {
	if x.N != m.Entities {
		return nil, fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	if err := series.CheckSamples(x, m.Config.Window, rows); err != nil {
		return nil, err
	}
	net, err := m.net()
	if err != nil {
		return nil, err
	}
	s := newSampler(x, m.Config.Window, m.Config.Neighbors)
	out := make([][]float64, len(rows))
	for k, t := range rows {
		pred, _ := s.predict(net, t)
		out[k] = make([]float64, x.N)
		for i := range x.N {
			out[k][i] = pred.At(i, 0)
		}
	}
	return out, nil
}

// Forecast rolls the model forward steps rows past the end of x, feeding
// each prediction back as the next row's input; row k of the result is
// step k+1.
func (m *Model) Forecast(x series.Matrix, steps int) ([][]float64, error) {
	ext := series.Matrix{T: x.T, N: x.N, Values: append([]float64(nil), x.Values...)}
	out := make([][]float64, steps)
	for k := range steps {
		row := make([]float64, x.N)
		if err := m.Predict(ext, ext.T, row); err != nil {
			return nil, err
		}
		out[k] = row
		ext.Values = append(ext.Values, row...)
		ext.T++
	}
	return out, nil
}

// MSE is the mean squared error of the model over the samples (target rows) of x.
func (m *Model) MSE(x series.Matrix, samples []int) (float64, error) {
	net, err := m.net()
	if err != nil {
		return 0, err
	}
	s := newSampler(x, m.Config.Window, m.Config.Neighbors)
	return s.sse(net, samples) / float64(len(samples)*x.N), nil
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
