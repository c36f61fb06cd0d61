package gatrun

import (
	"encoding/json"
	"fmt"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// Artifact is what the registry stores for a GAT model version (see
// gat.Artifact, which the MPI worker writes too: one type for both).
type Artifact = gat.Artifact

// artifact is the model after epoch, as stored.
// A final one keeps the data and the forecast state st.
func (j *Job) artifact(m series.Matrix, model *gat.Model, epoch int, final bool, st *gat.ForecastState) ([]byte, error) {
	a := Artifact{Model: model, Entities: j.Source.EntityNames(), TimeColumns: j.Source.TimeNames(), TimeKinds: j.timeKinds, LastTimes: j.lastTimes,
		Tail: m.Values[(m.T-model.Config.Span())*m.N:], Epoch: epoch}
	if final {
		a.Data, a.State = m.Values, st
	}
	return json.Marshal(a)
}

// DecodeArtifact reads a stored version's artifact and checks that its
// sizes and its forecast state agree.
func DecodeArtifact(data []byte) (*Artifact, error) {
	a, err := gat.UnmarshalArtifact(data)
	if err != nil {
		return nil, err
	}
	if a.State != nil {
		if err := a.State.Validate(len(a.Entities)); err != nil {
			return nil, fmt.Errorf("gat: decode artifact: %w", err)
		}
	}
	return a, nil
}

// Link maps a model's entities to the columns of the scaler that
// rescaled them, to report and forecast in original units.
type Link struct {
	Scaler scale.Scaler
	Column []int // scaler column of each entity
}

// NewLink links entities to the columns of s, the scaler saved as name,
// through one index of its columns, so that linking N entities costs
// O(N); it fails where s has no column of an entity.
func NewLink(s scale.Scaler, name string, entities []string) (*Link, error) {
	column, missing := scalerColumns(s, entities)
	if missing >= 0 {
		return nil, noScalerColumn(name, entities[missing])
	}
	return &Link{Scaler: s, Column: column}, nil
}

// scalerColumns is the column of s each entity names (the last of that
// name, should s repeat one), and the index of the first entity s has no
// column of, -1 when it has them all.
func scalerColumns(s scale.Scaler, entities []string) (column []int, missing int) {
	index := make(map[string]int, len(s.Columns))
	for k, col := range s.Columns {
		index[col] = k
	}
	column = make([]int, len(entities))
	for i, e := range entities {
		k, ok := index[e]
		if !ok {
			return nil, i
		}
		column[i] = k
	}
	return column, -1
}

// noScalerColumn is the error of a linked scaler without an entity's
// column.
func noScalerColumn(name, entity string) error {
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: scaler %s has no column %s", Name, quote(name), entity).
		WithHint("Link the scaler that rescaled this source: rescale(..., save_as := '%s').", name)
}

// Invert maps an entity's value back to original units; nil without a scaler.
func (l *Link) Invert() gat.Invert {
	if l == nil {
		return nil
	}
	return func(i int, v float64) float64 { return l.Scaler.Invert(l.Column[i], v) }
}

// Units maps between the model's units and the data's own; the identity
// when no scaler is linked.
func (l *Link) Units() gat.Units {
	if l == nil {
		return gat.Units{}
	}
	return gat.Units{Own: l.Invert(), Scaled: func(i int, v float64) float64 { return l.Scaler.Apply(l.Column[i], v) }}
}
