//go:build duckdb_arrow

package web

import (
	"context"
	"encoding/json"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// row is one result row by column name, ready to encode as a JSON object.
type row map[string]any

// query runs a read-only query with args on a connection of its own,
// after the configured setup, and returns its rows. Columns named in jsonColumns hold JSON text, which is
// embedded as JSON rather than as a string; NaN and infinities become null.
func (s *Server) query(ctx context.Context, query string, args ...any) ([]row, error) {
	r, err := s.db.ReadArgsAfter(ctx, s.cfg.Setup, query, args...)
	if err != nil {
		return nil, err
	}
	var out []row
	for r.Next() {
		out = appendRows(out, r.Batch())
	}
	return out, r.Close()
}

// jsonColumns are the columns of JSON text the dashboard's queries may return.
var jsonColumns = map[string]bool{"hyperparameters": true, "metrics": true, "extra": true, "data": true}

func appendRows(out []row, b arrow.RecordBatch) []row {
	fields := b.Schema().Fields()
	bools := make([]bool, len(fields))
	for k, field := range fields {
		bools[k] = isBool8(field)
	}
	for i := range int(b.NumRows()) {
		r := make(row, b.NumCols())
		for k, field := range fields {
			if bools[k] {
				r[field.Name] = bool8Value(b.Column(k), i)
				continue
			}
			r[field.Name] = jsonValue(field.Name, b.Column(k), i)
		}
		out = append(out, r)
	}
	return out
}

// bool8 is the Arrow extension a BOOLEAN arrives as, an int8 0 or 1, once
// any session sets arrow_lossless_conversion, which DuckDB applies to
// every connection (the wire sessions set it): the API must still say
// true and false.
const bool8 = "arrow.bool8"

// isBool8 reports whether field holds BOOLEANs as bool8, as a registered
// extension type or as int8 with the extension's name in its metadata.
func isBool8(field arrow.Field) bool {
	if ext, ok := field.Type.(arrow.ExtensionType); ok {
		return ext.ExtensionName() == bool8
	}
	name, ok := field.Metadata.GetValue("ARROW:extension:name")
	return ok && name == bool8 && field.Type.ID() == arrow.INT8
}

// bool8Value is row i of a bool8 column: true, false or nil.
func bool8Value(col arrow.Array, i int) any {
	if col.IsNull(i) {
		return nil
	}
	if ext, ok := col.(array.ExtensionArray); ok {
		col = ext.Storage()
	}
	if c, ok := col.(*array.Int8); ok {
		return c.Value(i) != 0
	}
	return col.GetOneForMarshal(i)
}

func jsonValue(name string, col arrow.Array, i int) any {
	if col.IsNull(i) {
		return nil
	}
	switch c := col.(type) {
	case *array.Float64:
		if v := c.Value(i); !math.IsNaN(v) && !math.IsInf(v, 0) {
			return v
		}
		return nil
	case interface{ Value(int) string }: // the value aliases the batch's memory, which is reused
		v := strings.Clone(c.Value(i))
		if jsonColumns[name] && json.Valid([]byte(v)) {
			return json.RawMessage(v)
		}
		return v
	}
	return col.GetOneForMarshal(i)
}
