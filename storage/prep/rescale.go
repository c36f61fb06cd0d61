//go:build duckdb_arrow

package prep

import (
	"context"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// Scaling is a bound rescale or unscale call: which source columns are
// transformed (by their index in the scaler) and how every column is read.
type Scaling struct {
	src     *Source
	times   []int
	columns []int       // the rescaled columns, in the scaler's order (rescale only)
	scaled  map[int]int // source column -> scaler column
	exprs   []string
	cols    []duckdb.ColumnInfo
	orderBy string
	invert  bool
}

// Rescale binds a rescale call on src: it rescales the columns named in
// columns, else every numeric column that is not a time column, and
// orders the rows by the time columns (those named in time, else found as
// Source.TimeColumns finds them).
func Rescale(src *Source, columns, time []string) (*Scaling, error) {
	s := &Scaling{src: src}
	var err error
	if s.times, err = src.TimeColumns(time); err != nil {
		return nil, err
	}
	if s.columns, err = s.rescaled(columns); err != nil {
		return nil, err
	}
	s.scaled = map[int]int{}
	for k, i := range s.columns {
		s.scaled[i] = k
	}
	if len(s.times) > 0 {
		s.orderBy = " ORDER BY " + src.IdentList(s.times)
	}
	return s, s.outputs()
}

// Unscale binds an unscale call on src with the columns of the scaler
// saved as name: the source's columns of those names are unscaled.
func Unscale(src *Source, name string, columns []string) (*Scaling, error) {
	s := &Scaling{src: src, scaled: map[int]int{}, invert: true}
	for k, col := range columns {
		i, err := src.Column("scaler", col)
		if err != nil {
			continue // a source may hold some of the scaler's columns
		}
		if !IsNumeric(src.Cols[i].Type.ID) {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "unscale: column %s has type %s; only numeric columns can be unscaled",
				src.Cols[i].Name, src.Cols[i].Type.PGName())
		}
		s.scaled[i] = k
	}
	if len(s.scaled) == 0 {
		return nil, sqlstate.New(sqlstate.UndefinedColumn, "unscale: the source has none of scaler %s's columns (%s)",
			Quote(name), strings.Join(columns, ", ")).WithHint("The source has columns %s.", src.ColumnList())
	}
	return s, s.outputs()
}

// Columns are the output's columns: the source's, the transformed ones as
// DOUBLE.
func (s *Scaling) Columns() []duckdb.ColumnInfo { return s.cols }

// outputs describes the output columns and how each source column is read:
// transformed columns as DOUBLE, the others passed through.
func (s *Scaling) outputs() error {
	s.cols = make([]duckdb.ColumnInfo, len(s.src.Cols))
	s.exprs = make([]string, len(s.src.Cols))
	for i, c := range s.src.Cols {
		if _, ok := s.scaled[i]; ok {
			s.exprs[i] = asDouble(c.Name, c.Type.ID) + " AS " + Ident(c.Name)
			s.cols[i] = duckdb.ColumnInfo{Name: c.Name, T: doubleType()}
			continue
		}
		expr, t, err := s.src.PassThrough(i)
		if err != nil {
			return err
		}
		s.exprs[i], s.cols[i] = expr, duckdb.ColumnInfo{Name: c.Name, T: t}
	}
	return nil
}

// rescaled resolves the columns to rescale: those given, else every
// numeric column that is not a time column.
func (s *Scaling) rescaled(given []string) ([]int, error) {
	if given == nil {
		var idx []int
		for i, c := range s.src.Cols {
			if IsNumeric(c.Type.ID) && !slices.Contains(s.times, i) {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: the source has no numeric column besides its time columns").
				WithHint("The source has columns %s; name the columns to rescale with columns := [...].", s.src.ColumnList())
		}
		return idx, nil
	}
	idx := make([]int, 0, len(given))
	for _, name := range given {
		i, err := s.src.Column("columns", name)
		if err != nil {
			return nil, err
		}
		c := s.src.Cols[i]
		switch {
		case slices.Contains(s.times, i):
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: column %s is a time column; time columns are not rescaled", c.Name).
				WithHint("Name the time columns with time := [...] if %s is not one.", c.Name)
		case !IsNumeric(c.Type.ID):
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "rescale: column %s has type %s; only numeric columns can be rescaled", c.Name, c.Type.PGName())
		case slices.Contains(idx, i):
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "rescale: column %s is named twice in columns", c.Name)
		}
		idx = append(idx, i)
	}
	return idx, nil
}

// asDouble is column name of type id read as a DOUBLE: the column itself
// when it is one, which spares DuckDB planning a cast per column of a
// wide source (the values are the same).
func asDouble(name string, id storage.TypeID) string {
	if id == storage.TypeDouble {
		return Ident(name)
	}
	return "CAST(" + Ident(name) + " AS DOUBLE)"
}

// Rows are the source's rows in time order, with the scaled columns to be
// transformed by a scaler as they are written out.
type Rows struct {
	s     *Scaling
	r     *storage.Reader
	apply func(int, []float64, []float64)
}

// Rows starts reading the source for output transformed by scaler: applied
// by rescale, inverted by unscale.
func (s *Scaling) Rows(ctx context.Context, r Reader, scaler scale.Scaler) (*Rows, error) {
	rows, err := r.Read(ctx, "SELECT "+strings.Join(s.exprs, ", ")+" FROM "+s.src.From+s.orderBy)
	if err != nil {
		return nil, s.src.Wrap(err)
	}
	apply := scaler.ApplySlice
	if s.invert {
		apply = scaler.InvertSlice
	}
	return &Rows{s: s, r: rows, apply: apply}, nil
}

// Next is the next batch of rows, its columns the output's; nil at the end.
func (r *Rows) Next() (arrow.RecordBatch, error) {
	if !r.r.Next() {
		return nil, r.s.src.Wrap(r.r.Err())
	}
	return r.r.Batch(), nil
}

// Close ends the read.
func (r *Rows) Close() { _ = r.r.Close() }

// Width is the number of columns.
func (r *Rows) Width() int { return len(r.s.src.Cols) }

// Scaled reports whether column col is transformed; the others pass
// through as they are.
func (r *Rows) Scaled(col int) bool {
	_, ok := r.s.scaled[col]
	return ok
}

// Scale writes the first len(dst) values of arr, scaled column col of a
// batch, transformed into dst.
func (r *Rows) Scale(col int, dst []float64, arr arrow.Array) {
	vals, _ := Floats(arr)
	r.apply(r.s.scaled[col], dst, vals[:len(dst)])
}
