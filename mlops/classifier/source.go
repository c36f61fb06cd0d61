package classifier

import (
	"context"
	"fmt"
)

// Examples are a data set's encoded inputs, read a batch at a time, so
// that a network trains on a data set it does not hold. Gather may be
// called by several workers at once.
type Examples interface {
	// Gather writes the inputs of rows, in that order, to dst, which
	// holds len(rows) times the network's input size values.
	Gather(rows []int, dst []float64) error
}

// Source is a table read a chunk of rows at a time, for tables too large
// to hold: FitSource and PredictSource ask it only for the rows of a
// batch. Table may be called by several workers at once.
type Source interface {
	// Len is the number of rows.
	Len() int
	// Table returns the rows idx, in that order, with every column of
	// the table (Table(nil) has the columns and no rows).
	Table(idx []int) (*Table, error)
}

// memExamples is examples held in memory: row r is x[r*dim:(r+1)*dim].
type memExamples struct {
	x   []float64
	dim int
}

func (d memExamples) Gather(rows []int, dst []float64) error {
	for i, r := range rows {
		if r < 0 || (r+1)*d.dim > len(d.x) {
			return fmt.Errorf("example row %d: want 0 to %d", r, len(d.x)/max(d.dim, 1)-1)
		}
		copy(dst[i*d.dim:(i+1)*d.dim], d.x[r*d.dim:(r+1)*d.dim])
	}
	return nil
}

// subsetExamples is the rows of ex listed in rows: its row i is ex's row
// rows[i].
type subsetExamples struct {
	ex   Examples
	rows []int
}

func (s subsetExamples) Gather(idx []int, dst []float64) error {
	mapped := make([]int, len(idx))
	for i, r := range idx {
		mapped[i] = s.rows[r]
	}
	return s.ex.Gather(mapped, dst)
}

// encoded is a source's rows preprocessed as the network takes them,
// encoded batch by batch as they are gathered.
type encoded struct {
	src  Source
	prep *Prep
}

func (e encoded) Gather(rows []int, dst []float64) error {
	t, err := e.src.Table(rows)
	if err != nil {
		return err
	}
	x, err := e.prep.features(t)
	if err != nil {
		return err
	}
	if len(x) != len(dst) {
		return fmt.Errorf("%d rows encoded to %d values: want %d", len(rows), len(x), len(dst))
	}
	copy(dst, x)
	return nil
}

// Rows is the rows of src listed in rows, in that order: its row i is
// src's row rows[i].
func Rows(src Source, rows []int) Source { return subsetSource{src: src, rows: rows} }

type subsetSource struct {
	src  Source
	rows []int
}

func (s subsetSource) Len() int { return len(s.rows) }

func (s subsetSource) Table(idx []int) (*Table, error) {
	mapped := make([]int, len(idx))
	for i, r := range idx {
		mapped[i] = s.rows[r]
	}
	return s.src.Table(mapped)
}

// InMemory is t as a Source.
func InMemory(t *Table) (Source, error) {
	n, err := t.Rows()
	if err != nil {
		return nil, err
	}
	return tableSource{t: t, n: n}, nil
}

type tableSource struct {
	t *Table
	n int
}

func (s tableSource) Len() int { return s.n }

func (s tableSource) Table(idx []int) (*Table, error) {
	out := &Table{}
	for _, c := range s.t.Numeric {
		out.Numeric = append(out.Numeric, NumericColumn{Name: c.Name, Values: pickRows(c.Values, idx)})
	}
	for _, c := range s.t.Categorical {
		out.Categorical = append(out.Categorical, CategoricalColumn{Name: c.Name, Values: pickRows(c.Values, idx)})
	}
	if im := s.t.Image; im != nil {
		c := *im
		c.Pixels = pickRows(im.Pixels, idx)
		out.Image = &c
	}
	return out, nil
}

func pickRows[T any](v []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, r := range idx {
		out[i] = v[r]
	}
	return out
}

// scanChunk is the number of rows a pass over a source reads at a time.
const scanChunk = 1024

// scan hands fn the rows of src listed in rows, in that order, a chunk
// at a time; it stops at fn's first error or when ctx ends.
func scan(ctx context.Context, src Source, rows []int, fn func(*Table) error) error {
	for start := 0; start < len(rows); start += scanChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := src.Table(rows[start:min(start+scanChunk, len(rows))])
		if err != nil {
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
}
