//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"errors"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// storedGAT is a GAT model version as the registry keeps it.
type storedGAT struct {
	*gatrun.Artifact
	ref     mlops.Ref
	scaler  string
	metrics []gat.Metrics // nil for a version that did not finish training
	autoVal float64       // evaluate's auto: the chosen methods' mean validation MSE, once horizons ran
}

// loadGAT reads the GAT model version that the model and version
// arguments name: the deployed one when neither names a version.
func loadGAT(c *call, fn string, mv modelVersion) (*storedGAT, error) {
	ref, err := mv.ref(fn)
	if err != nil {
		return nil, err
	}
	m, art, err := c.reg.Decoded(c.ctx(), "gat", ref, func(data []byte) (any, error) { return gatrun.DecodeArtifact(data) })
	if err != nil {
		return nil, registryError(fn, err)
	}
	s := &storedGAT{Artifact: art.(*gatrun.Artifact), ref: m.Ref, scaler: m.Scaler}
	if m.Metrics != "" {
		if err := json.Unmarshal([]byte(m.Metrics), &s.metrics); err != nil {
			return nil, fmt.Errorf("decode metrics of %s: %w", m.Ref, err)
		}
	}
	return s, nil
}

// serving is the version as package gat serves it, its methods fitted by
// ladder.
func (s *storedGAT) serving() *gat.Serving {
	m, ok := s.Matrix()
	g := &gat.Serving{Model: s.Model, State: s.State, Data: m, HasData: ok, Ladder: s.ladder}
	if n := len(s.Entities); n > 0 {
		g.Tail = series.Matrix{T: len(s.Tail) / n, N: n, Values: s.Tail}
	}
	return g
}

// servingError words the errors of package gat's serving for fn.
func (s *storedGAT) servingError(fn string, err error) error {
	var unfit *gat.UnfittableError
	var left *gat.LeftOutError
	switch {
	case errors.As(err, &left):
		return sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method %s was left out of %s's ladder (ladder := %s, by default past %d entities; it has %d)",
			quote(left.Method), s.ref, quote(left.Ladder), gat.CatalogueEntities, left.Entities).WithHint("Choose another method, or train with ladder := 'full'.")
	case errors.Is(err, gat.ErrNoValidation):
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s was trained without validation, so method := 'auto' has nothing to choose by", fn, s.ref).
			WithHint("Train with validation_fraction above 0, or name a method.")
	case errors.As(err, &unfit):
		return sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method %s cannot be fitted on %s's training rows: %v", quote(unfit.Method), s.ref, unfit.Skipped).
			WithHint("Choose another method.")
	}
	return err
}

// rowsRun writes rows held in memory.
func rowsRun(rows [][]any) *run {
	next := 0
	return &run{fill: func(chunk duckdb.DataChunk) (int, error) {
		n := min(len(rows)-next, duckdb.GetDataChunkCapacity())
		for r := range n {
			for col, v := range rows[next+r] {
				if err := chunk.SetValue(col, r, v); err != nil {
					return 0, err
				}
			}
		}
		next += n
		return n, nil
	}}
}
