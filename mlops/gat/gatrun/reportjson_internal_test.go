package gatrun

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
)

// TestReportEncode checks that a report's encoding, with its attention
// written edge by edge, is byte for byte json.Marshal's of the same
// report with the edges in Attention, over weights in each of
// encoding/json's notations; and that a weight without a JSON form fails.
func TestReportEncode(t *testing.T) {
	weights := []float64{0, 1, 0.5, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, 2.5e-10, 5e-324, -1e-8, 1e20, 1e21, 1.5e22, 123456789.125, -0.75, math.Nextafter(1, 0)}
	att := make([]gat.Edge, len(weights))
	for k, w := range weights {
		att[k] = gat.Edge{Source: k * 7 % 5, Target: k / 3, Weight: w}
	}
	base := Report{Units: "model", Window: 4, Entities: []string{"a", "b"}, TotalEntities: 2, Times: []string{"1", "2"},
		Truth: [][]float64{{1, 2}, {3, 4}}, Prediction: [][]*float64{{nil, nil}, {nil, nil}}, Edges: []ReportEdge{{0, 1, 0.25}}}
	for _, tt := range []struct {
		name string
		att  []gat.Edge
	}{{"edges", att}, {"one edge", att[3:4]}, {"none", nil}} {
		r, want := base, base
		r.attention = tt.att
		for _, e := range tt.att {
			want.Attention = append(want.Attention, ReportEdge{Source: e.Source, Target: e.Target, Weight: e.Weight})
		}
		got, err := r.encode()
		wantJSON, werr := json.Marshal(&want)
		if err != nil || werr != nil || !bytes.Equal(got, wantJSON) {
			t.Errorf("%s: encode\n%s (%v)\nwant json.Marshal's\n%s (%v)", tt.name, got, err, wantJSON, werr)
		}
	}
	for _, w := range []float64{math.NaN(), math.Inf(1)} {
		r := base
		r.attention = []gat.Edge{{Weight: w}}
		if _, err := r.encode(); err == nil {
			t.Errorf("weight %v encoded without an error", w)
		}
	}
}
