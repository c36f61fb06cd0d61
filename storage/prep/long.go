//go:build duckdb_arrow

package prep

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// Long is a long source train_gat reads without a wide pivot: one row per
// entity and time, the entity, time and value columns named.
type Long struct {
	From   string // the long source's FROM item
	Entity string // the entity column, quoted
	Value  string // the value column, quoted
	Times  string // the time columns, quoted, comma-separated
	Names  []string
}

// NewLong binds a long source: the entity column, the value column and
// the time columns (time := [...] or those found as for a wide source),
// then reads its entities on r, in the order pivot_entity_time gives them
// columns. Wide binds the source of its distinct times (TimesQuery).
func NewLong(ctx context.Context, r Reader, src *Source, entity, value string, time []string) (*Long, error) {
	ei, err := src.Column("entity", entity)
	if err != nil {
		return nil, err
	}
	if value == "" {
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "%s: entity := %s makes the source long, so argument value is required", src.Fn, Quote(entity)).
			WithHint("Name the column of the values: value := 'units'. The source has columns %s.", src.ColumnList())
	}
	vi, err := src.Column("value", value)
	if err != nil {
		return nil, err
	}
	if !IsNumeric(src.Cols[vi].Type.ID) {
		return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: value := %s has type %s; the values must be numeric", src.Fn, Quote(src.Cols[vi].Name), src.Cols[vi].Type.PGName())
	}
	times, err := src.TimeColumns(time)
	if err != nil {
		return nil, err
	}
	times = slices.DeleteFunc(times, func(i int) bool { return i == ei || i == vi })
	if len(times) == 0 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the long source has no time column", src.Fn).
			WithHint("Name them with time := [...]; the source has columns %s.", src.ColumnList())
	}
	l := &Long{From: src.From, Entity: Ident(src.Cols[ei].Name), Value: Ident(src.Cols[vi].Name), Times: src.IdentList(times)}
	if l.Names, err = l.entities(ctx, r, src); err != nil {
		return nil, err
	}
	if len(l.Names) < 2 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d entities; a graph needs at least 2", src.Fn, len(l.Names))
	}
	return l, nil
}

// TimesQuery is the query of the long source's distinct times: the
// source a Wide of it reads, so that its time rows, row count and time
// columns are the pivot's.
func (l *Long) TimesQuery() string { return "SELECT DISTINCT " + l.Times + " FROM " + l.From }

// Wide is the long source as the wide source of its distinct times tsrc
// (described from TimesQuery), with its entities beside.
func (l *Long) Wide(r Reader, tsrc *Source) *Wide {
	w := &Wide{R: r, Src: tsrc, Long: l, Entities: make([]int, len(l.Names))}
	for i := range tsrc.Cols {
		w.Times = append(w.Times, i)
	}
	w.OrderBy = " ORDER BY " + tsrc.IdentList(w.Times)
	return w
}

// entities are the distinct entities as text, ordered as pivot_entity_time
// orders its columns; a NULL entity is an error.
func (l *Long) entities(ctx context.Context, rd Reader, src *Source) ([]string, error) {
	r, err := rd.Read(ctx, fmt.Sprintf("SELECT CAST(e AS VARCHAR) FROM (SELECT DISTINCT %s AS e FROM %s) ORDER BY e NULLS FIRST", l.Entity, l.From))
	if err != nil {
		return nil, src.Wrap(err)
	}
	defer r.Close()
	var names []string
	for r.Next() {
		col := r.Batch().Column(0)
		for i := range col.Len() {
			if col.IsNull(i) {
				return nil, sqlstate.New(sqlstate.NullValueNotAllowed, "%s: the entity column has a NULL", src.Fn).WithHint("Leave those rows out of the source.")
			}
			names = append(names, strings.Clone(col.(*array.String).Value(i))) // the batch's memory is reused
		}
	}
	return names, src.Wrap(r.Err())
}

// matrix reads the long rows into a time x entity matrix; a cell missing,
// given twice, NULL or not finite is an error.
func (l *Long) matrix(ctx context.Context, w *Wide) (series.Matrix, error) {
	q := fmt.Sprintf(`SELECT CAST(dense_rank() OVER (ORDER BY %s) - 1 AS BIGINT), CAST(dense_rank() OVER (ORDER BY %s) - 1 AS BIGINT),
		CAST(%s AS DOUBLE) FROM %s`, l.Times, l.Entity, l.Value, l.From)
	r, err := w.R.Read(ctx, q)
	if err != nil {
		return series.Matrix{}, w.Src.Wrap(err)
	}
	defer r.Close()
	n := len(l.Names)
	var vals []float64
	var seen []bool
	for r.Next() {
		b := r.Batch()
		ts, es := b.Column(0).(*array.Int64), b.Column(1).(*array.Int64)
		v, valid := Floats(b.Column(2))
		for row := range int(b.NumRows()) {
			t, e := int(ts.Value(row)), int(es.Value(row))
			if need := (t + 1) * n; need > len(vals) {
				vals, seen = slices.Grow(vals, need-len(vals))[:need], slices.Grow(seen, need-len(seen))[:need]
			}
			switch at := t*n + e; {
			case !valid(row) || math.IsNaN(v[row]) || math.IsInf(v[row], 0):
				return series.Matrix{}, l.cellError(w, "a NULL or non-finite value", t, e)
			case seen[at]:
				return series.Matrix{}, l.cellError(w, "two rows", t, e)
			default:
				vals[at], seen[at] = v[row], true
			}
		}
	}
	if err := r.Err(); err != nil {
		return series.Matrix{}, w.Src.Wrap(err)
	}
	if at := slices.Index(seen, false); at >= 0 {
		return series.Matrix{}, l.cellError(w, "no row", at/n, at%n)
	}
	return series.Matrix{T: len(vals) / n, N: n, Values: vals}, nil
}

// cellError is the error of the cell of entity e at the t-th time.
func (l *Long) cellError(w *Wide, what string, t, e int) error {
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: entity %s has %s at the %d-th time (in time order)", w.Src.Fn, Quote(l.Names[e]), what, t+1).
		WithHint("Train on one value per entity and time: pivot_entity_time(..., missing := 'ffill') fills gaps and aggregates duplicates.")
}
