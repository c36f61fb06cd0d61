package job

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/storage"
)

// files are the spec's Parquet files, sorted, so that every rank lists
// them alike.
func (s Spec) files(dir string) ([]string, error) {
	pattern := s.Source
	if pattern == "" {
		pattern = "*.parquet"
		if s.Shard != "" {
			pattern = shardPattern
		}
	}
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(dir, pattern)
	}
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("job spec: source %q: %w", s.Source, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("job spec: source %q matches no file", pattern)
	}
	slices.Sort(files)
	return files, nil
}

// wide is a GAT source read whole: its time columns (their kinds and
// every row's values as text) and its entity columns as a matrix.
type wide struct {
	times, entities []string
	kinds           []string
	rows            [][]string
	m               series.Matrix
}

// readWide reads the Time x Entity table in files, in time order: every
// column but the time columns is an entity and must be numeric, without
// NULLs. Every rank reads it whole: a GAT sample spans every entity, and
// the graph's edges are correlations over the training rows; the ranks
// share the samples of each mini-batch instead.
func readWide(ctx context.Context, db *storage.DB, files, time []string) (*wide, error) {
	scan := storage.Parquet{Files: files, OrderBy: time}
	cols, err := scan.Describe(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	w := &wide{times: time}
	for _, c := range cols {
		if !slices.Contains(time, c.Name) {
			w.entities = append(w.entities, c.Name)
		}
	}
	for _, t := range time {
		if !slices.ContainsFunc(cols, func(c storage.Column) bool { return c.Name == t }) {
			return nil, fmt.Errorf("read source: time column %q is not in the source", t)
		}
	}
	if len(w.entities) < 2 {
		return nil, fmt.Errorf("read source: %d entity columns; a graph needs at least 2", len(w.entities))
	}
	w.kinds = columnKinds(cols, time)
	for _, t := range time {
		scan.Columns = append(scan.Columns, storage.Cast{Column: t, Type: storage.TypeVarchar})
	}
	for _, e := range w.entities {
		scan.Columns = append(scan.Columns, storage.Cast{Column: e, Type: storage.TypeDouble})
	}
	r, err := scan.Read(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	defer r.Close()
	w.m.N = len(w.entities)
	for r.Next() {
		if err := w.add(r); err != nil {
			return nil, err
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	return w, nil
}

// add appends a batch of rows.
func (w *wide) add(r *storage.Reader) error {
	b := r.Batch()
	nt := len(w.times)
	for row := range int(b.NumRows()) {
		vals := make([]string, nt)
		for k := range nt {
			vals[k] = strings.Clone(b.Column(k).(*array.String).Value(row)) // the batch's memory is reused
		}
		w.rows = append(w.rows, vals)
		for k := range w.m.N {
			col := b.Column(nt + k).(*array.Float64)
			v := col.Value(row)
			if col.IsNull(row) || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("read source: column %s has a NULL or non-finite value in row %d (in time order)", w.entities[k], w.m.T+1)
			}
			w.m.Values = append(w.m.Values, v)
		}
		w.m.T++
	}
	return nil
}

// columnKinds are the kinds of the named columns of cols as a GAT
// artifact records its time columns': "int", "date", "timestamp" or
// "other".
func columnKinds(cols []storage.Column, names []string) []string {
	kinds := make([]string, len(names))
	for i, name := range names {
		kinds[i] = "other"
		if k := slices.IndexFunc(cols, func(c storage.Column) bool { return c.Name == name }); k >= 0 {
			kinds[i] = timeKind(cols[k].Type.ID)
		}
	}
	return kinds
}

// timeKind classifies a DuckDB type as functions' time columns are.
func timeKind(t storage.TypeID) string {
	switch t {
	case storage.TypeDate:
		return "date"
	case storage.TypeTimestamp, storage.TypeTimestampS, storage.TypeTimestampMS, storage.TypeTimestampNS:
		return "timestamp"
	case storage.TypeTinyInt, storage.TypeSmallInt, storage.TypeInteger, storage.TypeBigInt, storage.TypeHugeInt,
		storage.TypeUTinyInt, storage.TypeUSmallInt, storage.TypeUInteger, storage.TypeUBigInt, storage.TypeUHugeInt:
		return "int"
	}
	return "other"
}

// lastTwo are the time columns of the last two rows, latest first.
func (w *wide) lastTwo() [][]string {
	var out [][]string
	for i := len(w.rows) - 1; i >= 0 && i >= len(w.rows)-2; i-- {
		out = append(out, w.rows[i])
	}
	return out
}
