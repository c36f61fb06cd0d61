//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/gat/gatrun"
)

// loadGAT reads the GAT model version that the model and version
// arguments name: the deployed one when neither names a version.
func loadGAT(c *call, fn string, mv modelVersion) (*gatrun.Version, error) {
	ref, err := mv.ref(fn)
	if err != nil {
		return nil, err
	}
	m, art, err := c.reg.Decoded(c.ctx(), "gat", ref, func(data []byte) (any, error) { return gatrun.DecodeArtifact(data) })
	if err != nil {
		return nil, registryError(fn, err)
	}
	s := &gatrun.Version{Artifact: art.(*gatrun.Artifact), Ref: m.Ref, Scaler: m.Scaler}
	if m.Metrics != "" {
		if err := json.Unmarshal([]byte(m.Metrics), &s.Metrics); err != nil {
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
