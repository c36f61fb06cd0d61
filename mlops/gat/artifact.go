package gat

import (
	"encoding/json"
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// Artifact is a GAT model version as the registry stores it, final or
// checkpoint: the weights, the entities they forecast, the time columns
// of the source (their kinds: "int", "date", "timestamp" or "other"), the
// time columns of the last two rows (latest first, as text), the last
// Span() rows of the series to forecast from, and the epoch. Data, every
// row trained and tested on, is kept with a finished version only.
type Artifact struct {
	Model       *Model     `json:"model"`
	Entities    []string   `json:"entities"`
	TimeColumns []string   `json:"time_columns"`
	TimeKinds   []string   `json:"time_kinds"`
	LastTimes   [][]string `json:"last_times"`
	Tail        []float64  `json:"tail"`
	Epoch       int        `json:"epoch"`
	Data        []float64  `json:"data,omitempty"`
	// State, kept with a finished version, is what forecasting reads
	// instead of fitting the ladder again; nil in older versions.
	State *ForecastState `json:"state,omitempty"`
}

// Matrix is the data a finished version was trained on; ok is false for a
// checkpoint or a version stored before versions kept it.
func (a *Artifact) Matrix() (m series.Matrix, ok bool) {
	n := len(a.Entities)
	if len(a.Data) == 0 || n == 0 {
		return series.Matrix{}, false
	}
	return series.Matrix{T: len(a.Data) / n, N: n, Values: a.Data}, true
}

// Marshal encodes a as the registry stores it.
func (a *Artifact) Marshal() ([]byte, error) {
	if a.Model == nil || len(a.Entities) != a.Model.Entities || len(a.Tail) != a.Model.Config.Span()*len(a.Entities) {
		return nil, fmt.Errorf("gat: encode artifact: inconsistent sizes")
	}
	return json.Marshal(a)
}

// UnmarshalArtifact decodes what Marshal encoded.
func UnmarshalArtifact(data []byte) (*Artifact, error) {
	var a Artifact
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("gat: decode artifact: %w", err)
	}
	if a.Model == nil || len(a.Entities) != a.Model.Entities || len(a.Tail) != a.Model.Config.Span()*len(a.Entities) {
		return nil, fmt.Errorf("gat: decode artifact: inconsistent sizes")
	}
	return &a, nil
}
