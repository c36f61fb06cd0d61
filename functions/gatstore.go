//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"fmt"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// gatArtifact is what the registry stores for a GAT model version, final
// or checkpoint: the weights, the entities they forecast, the time columns
// of the source, and the last window of the series to forecast from.
type gatArtifact struct {
	Model       *gat.Model `json:"model"`
	Entities    []string   `json:"entities"`
	TimeColumns []string   `json:"time_columns"`
	TimeKinds   []string   `json:"time_kinds"`
	LastTimes   [][]string `json:"last_times"` // the time columns of the last two rows, latest first
	Tail        []float64  `json:"tail"`
	Epoch       int        `json:"epoch"`
	// Data is every row the model was trained and tested on, kept with a
	// finished version (not with checkpoints): evaluate scores horizons,
	// forecast fits the baselines and the intervals from it.
	Data []float64 `json:"data,omitempty"`
	// State is what forecast reads instead of fitting the ladder again,
	// kept with a finished version; versions stored before it have none
	// and are forecast by fitting.
	State *gat.ForecastState `json:"state,omitempty"`
}

// matrix is the data a finished version was trained on; ok is false for a
// checkpoint or a version stored before versions kept it.
func (a *gatArtifact) matrix() (m series.Matrix, ok bool) {
	n := len(a.Entities)
	if len(a.Data) == 0 || n == 0 {
		return series.Matrix{}, false
	}
	return series.Matrix{T: len(a.Data) / n, N: n, Values: a.Data}, true
}

// artifact is the model after epoch, as stored.
// A final one keeps the data and the forecast state st.
func (j *gatJob) artifact(m series.Matrix, model *gat.Model, epoch int, final bool, st *gat.ForecastState) ([]byte, error) {
	a := gatArtifact{Model: model, Entities: j.w.entityNames(), TimeColumns: j.w.timeNames(), TimeKinds: j.timeKinds, LastTimes: j.lastTimes,
		Tail: m.Values[(m.T-model.Config.Span())*m.N:], Epoch: epoch}
	if final {
		a.Data, a.State = m.Values, st
	}
	return json.Marshal(a)
}

func decodeGATArtifact(data []byte) (*gatArtifact, error) {
	var a gatArtifact
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("decode gat artifact: %w", err)
	}
	if a.Model == nil || len(a.Entities) != a.Model.Entities || len(a.Tail) != a.Model.Config.Span()*len(a.Entities) {
		return nil, fmt.Errorf("decode gat artifact: inconsistent sizes")
	}
	if a.State != nil {
		if err := a.State.Validate(len(a.Entities)); err != nil {
			return nil, fmt.Errorf("decode gat artifact: %w", err)
		}
	}
	return &a, nil
}
