//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/mallard/mallard/mlops/gat"
)

// A report's attention holds an edge for every (source, target) pair of
// the model's entities without a neighbour limit, and each target's
// neighbours + 1 kept edges with one (see gat.Model.Attention): a
// quarter of a million edges at 2,000 entities, 110,000 at 10,000 with
// neighbors := 10. encode writes it straight from the model's edges into a
// buffer of its exact size, where json.Marshal would copy the edges into
// reportEdges, grow its own buffer by doubling, copy the result out and
// keep the grown buffer in its pool: four times the JSON's size at once.

// encode is r as JSON, the same bytes as json.Marshal of r with
// Attention holding r.attention's edges (json.Marshal alone where r has
// Attention already, or no attention).
func (r *gatReport) encode() ([]byte, error) {
	head, err := json.Marshal(r)
	if err != nil || len(r.attention) == 0 || r.Attention != nil {
		return head, err
	}
	const key = `,"attention":[`
	size := len(head) + len(key) + 1 // the closing bracket; head's own brace closes the object
	var scratch []byte
	for _, e := range r.attention {
		scratch, err = appendEdge(scratch[:0], e)
		if err != nil {
			return nil, err
		}
		size += len(scratch) + 1 // the comma or the bracket after it
	}
	out := make([]byte, 0, size)
	out = append(append(out, head[:len(head)-1]...), key...)
	for k, e := range r.attention {
		if k > 0 {
			out = append(out, ',')
		}
		out, _ = appendEdge(out, e)
	}
	return append(out, "]}"...), nil
}

// appendEdge appends e as encoding/json writes a reportEdge.
func appendEdge(b []byte, e gat.Edge) ([]byte, error) {
	b = append(b, `{"source":`...)
	b = strconv.AppendInt(b, int64(e.Source), 10)
	b = append(b, `,"target":`...)
	b = strconv.AppendInt(b, int64(e.Target), 10)
	b = append(b, `,"weight":`...)
	b, err := appendJSONFloat(b, e.Weight)
	return append(b, '}'), err
}

// appendJSONFloat appends f in encoding/json's notation for a float64:
// the shortest decimal that reads back as f, in exponent notation only
// below 1e-6 or from 1e21 in magnitude, with a one-digit negative
// exponent unpadded (1e-7, not 1e-07). NaN and the infinities have no
// JSON form.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("report: attention weight %v has no JSON form", f)
	}
	abs := math.Abs(f)
	if abs == 0 || abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64), nil
	}
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	if n := len(b); n >= 4 && string(b[n-4:n-1]) == "e-0" {
		b = append(b[:n-2], b[n-1])
	}
	return b, nil
}
