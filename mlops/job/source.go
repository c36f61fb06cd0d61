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
	from := "read_parquet([" + strings.Join(mapped(files, literal), ", ") + "])"
	cols, err := db.Describe(ctx, "SELECT * FROM "+from)
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
	if w.kinds, err = columnKinds(ctx, db, from, time); err != nil {
		return nil, err
	}
	var exprs []string
	for _, t := range time {
		exprs = append(exprs, "CAST("+ident(t)+" AS VARCHAR)")
	}
	for _, e := range w.entities {
		exprs = append(exprs, "CAST("+ident(e)+" AS DOUBLE)")
	}
	order := strings.Join(mapped(time, ident), ", ")
	r, err := db.Read(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+from+" ORDER BY "+order)
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

// columnKinds are the kinds of columns as a GAT artifact records its time
// columns': "int", "date", "timestamp" or "other".
func columnKinds(ctx context.Context, db *storage.DB, from string, time []string) ([]string, error) {
	var exprs []string
	for _, t := range time {
		exprs = append(exprs, "typeof("+ident(t)+")")
	}
	r, err := db.Read(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+from+" LIMIT 1")
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	defer r.Close()
	kinds := make([]string, len(time))
	for i := range kinds {
		kinds[i] = "other"
	}
	if r.Next() && r.Batch().NumRows() > 0 {
		for i := range time {
			kinds[i] = timeKind(r.Batch().Column(i).(*array.String).Value(0))
		}
	}
	return kinds, r.Err()
}

// timeKind classifies a DuckDB type name as functions' time columns are.
func timeKind(t string) string {
	switch {
	case t == "DATE":
		return "date"
	case strings.HasPrefix(t, "TIMESTAMP") && t != "TIMESTAMP WITH TIME ZONE":
		return "timestamp"
	case slices.Contains([]string{"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}, t):
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

func ident(s string) string   { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func literal(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

func mapped(xs []string, f func(string) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
