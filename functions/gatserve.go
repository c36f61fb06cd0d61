//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
)

// storedGAT is a GAT model version as the registry keeps it.
type storedGAT struct {
	*gatArtifact
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
	m, art, err := c.reg.Decoded(c.ctx(), "gat", ref, func(data []byte) (any, error) { return decodeGATArtifact(data) })
	if err != nil {
		return nil, registryError(fn, err)
	}
	s := &storedGAT{gatArtifact: art.(*gatArtifact), ref: m.Ref, scaler: m.Scaler}
	if m.Metrics != "" {
		if err := json.Unmarshal([]byte(m.Metrics), &s.metrics); err != nil {
			return nil, fmt.Errorf("decode metrics of %s: %w", m.Ref, err)
		}
	}
	return s, nil
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
