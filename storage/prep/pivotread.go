//go:build duckdb_arrow

package prep

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// Engine is what a pivot runs on: the caller's reads, and its client for
// the NOTICE about combined rows.
type Engine interface {
	Reader
	Notice(message string)
}

// Grid is the pivoted matrix: one row per time, one cell per entity.
type Grid struct {
	Times [][]any   // the time columns' values of each row
	Cells []float64 // row-major, Rows() x Width
	Have  []bool    // whether each cell has a value
	Width int
}

// Rows is the number of rows, one per time.
func (g *Grid) Rows() int { return len(g.Times) }

// Grid runs the aggregation, lays its cells out in the grid and fills the
// missing cells as the call asked. Before it makes the grid it reserves
// the grid's memory in budget, which fails with 53200 when the result
// does not fit the memory limit; release gives it back and is not nil
// when err is.
func (p *Pivot) Grid(ctx context.Context, e Engine, budget *storage.Budget) (g *Grid, release func(), err error) {
	g, release, err = p.read(ctx, e, budget)
	if err == nil {
		err = p.fillMissing(g)
	}
	if err != nil {
		release()
		return nil, nil, err
	}
	return g, release, nil
}

// gridBytes is what the grid of the output holds for periods rows: a
// value and a flag per cell, and each row's time values.
func (p *Pivot) gridBytes(periods int64) int64 {
	return periods * (int64(len(p.entities))*9 + int64(len(p.times))*40 + 24)
}

// query aggregates the source to one row per (time, entity), in time
// order, after a first row that holds only the number of distinct times
// (the size of the output, known before Mallard builds it), the number of
// cells that several source rows fell into and those rows' number (its
// last three columns; NULL in every other row). The aggregate is
// materialized once and read twice, so the source is scanned once. It
// groups by the entity as it is and makes it text afterwards, once per
// cell instead of per row.
func (p *Pivot) query() string {
	from := p.src.From
	if p.agg == "last" {
		from = "(SELECT *, row_number() OVER () AS mallard_ord FROM " + from + ") AS mallard_ordered"
	}
	value := fmt.Sprintf(pivotAggregates[p.agg], "CAST("+Ident(p.src.Cols[p.value].Name)+" AS DOUBLE)")
	times := p.src.IdentList(p.times)
	var nulls strings.Builder
	for _, t := range p.times {
		nulls.WriteString("NULL AS " + Ident(p.src.Cols[t].Name) + ", ")
	}
	return fmt.Sprintf(`WITH mallard_cells AS MATERIALIZED (
  SELECT %s, CAST(mallard_e AS VARCHAR) AS mallard_entity, mallard_value, mallard_n
  FROM (SELECT %s, %s AS mallard_e, %s AS mallard_value, count(*) AS mallard_n FROM %s GROUP BY ALL))
SELECT * FROM (
  SELECT %sNULL, NULL, NULL, (SELECT count(*) FROM (SELECT DISTINCT %s FROM mallard_cells)) AS mallard_periods,
    count(*) FILTER (WHERE mallard_n > 1), CAST(coalesce(sum(mallard_n) FILTER (WHERE mallard_n > 1), 0) AS BIGINT)
  FROM mallard_cells
  UNION ALL
  SELECT *, NULL, NULL, NULL FROM mallard_cells)
ORDER BY mallard_periods NULLS LAST, %s`,
		times, strings.Join(p.timeExpr, ", "), Ident(p.src.Cols[p.entity].Name), value, from, nulls.String(), times, times)
}

// checkDuplicates applies the duplicates := policy to the cells cells
// of several source rows, rows rows in all.
func (p *Pivot) checkDuplicates(e Engine, cells, rows int64) error {
	if cells == 0 {
		return nil
	}
	switch p.duplicates {
	case "error":
		return sqlstate.New(sqlstate.CardinalityViolation, "%s: %d (entity, time) cells have more than one row, %d rows in all (duplicates := 'error')",
			pivotName, cells, rows).
			WithHint("Remove the repeated rows in the source query, or choose duplicates := 'sum', 'avg' or 'last' to combine them.")
	case "":
		e.Notice(fmt.Sprintf("%s: %d (entity, time) cells have more than one row, %d rows in all; combined by agg := '%s'. "+
			"Choose duplicates := 'sum', 'avg', 'last' or 'error' to say what repeated rows mean.", pivotName, cells, rows, p.agg))
	}
	return nil
}

// read runs the aggregation and lays its cells out in the grid; release
// is never nil.
func (p *Pivot) read(ctx context.Context, e Engine, budget *storage.Budget) (g *Grid, release func(), err error) {
	release = func() {}
	r, err := e.Read(ctx, p.query())
	if err != nil {
		return nil, release, p.src.Wrap(err)
	}
	defer r.Close()
	var last []any
	for r.Next() {
		b := r.Batch()
		if b.NumRows() == 0 {
			continue
		}
		first := 0
		if g == nil { // the first row holds the number of times and of repeated cells
			if g, release, err = p.newGrid(ctx, e, budget, b); err != nil {
				return nil, release, err
			}
			first = 1
		}
		if last, err = p.add(g, b, first, last); err != nil {
			return nil, release, err
		}
	}
	if err := r.Err(); err != nil {
		return nil, release, p.src.Wrap(err)
	}
	if g == nil {
		return nil, release, fmt.Errorf("%s: the aggregation returned no rows, not even their count", pivotName)
	}
	return g, release, nil
}

// newGrid reads the first row of the aggregation, b's first, checks the
// repeated cells and reserves and makes the grid; release is never nil.
func (p *Pivot) newGrid(ctx context.Context, e Engine, budget *storage.Budget, b arrow.RecordBatch) (*Grid, func(), error) {
	k := len(p.times)
	periods := ValueAt(b.Column(k+3), 0).(int64)
	if err := p.checkDuplicates(e, ValueAt(b.Column(k+4), 0).(int64), ValueAt(b.Column(k+5), 0).(int64)); err != nil {
		return nil, func() {}, err
	}
	release, err := budget.Reserve(ctx, p.gridBytes(periods),
		fmt.Sprintf("%s's result (%d rows x %d columns)", pivotName, periods, len(p.entities)+k))
	if err != nil {
		return nil, func() {}, err
	}
	g := &Grid{Width: len(p.entities), Times: make([][]any, 0, periods)}
	g.Cells, g.Have = make([]float64, 0, int(periods)*g.Width), make([]bool, 0, int(periods)*g.Width)
	return g, release, nil
}

// add lays rows first... of b into g; last is the time values of the
// grid's last row, and add returns them as they are after b.
func (p *Pivot) add(g *Grid, b arrow.RecordBatch, first int, last []any) ([]any, error) {
	k := len(p.times)
	values, valid := Floats(b.Column(k + 1))
	for i := first; i < int(b.NumRows()); i++ {
		if i == first || !sameRow(b, k, i) {
			key, err := p.key(b, i)
			if err != nil {
				return nil, err
			}
			if last == nil || !sameKey(key, last) {
				if len(g.Times) == cap(g.Times) {
					return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState,
						"%s: the source gained a time while it was read", pivotName).WithHint("Run the statement again.")
				}
				g.Times = append(g.Times, key)
				g.Cells = append(g.Cells, make([]float64, g.Width)...)
				g.Have = append(g.Have, make([]bool, g.Width)...)
				last = key
			}
		}
		name := textAt(b.Column(k), i) // the entity column is cast to VARCHAR; aliases the batch
		e, ok := p.index[name]
		if !ok {
			return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState,
				"%s: the source gained an entity after the statement was prepared", pivotName).WithHint("Run the statement again.")
		}
		if valid(i) {
			cell := (g.Rows()-1)*g.Width + e
			g.Cells[cell], g.Have[cell] = values[i], true
		}
	}
	return last, nil
}

// textAt is element i of a text array, aliasing the batch's memory; ""
// for an array of another type.
func textAt(arr arrow.Array, i int) string {
	switch a := arr.(type) {
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.StringView:
		return a.Value(i)
	case *array.Dictionary:
		return textAt(a.Dictionary(), a.GetValueIndex(i))
	}
	return ""
}

// key reads the time values of row i.
func (p *Pivot) key(b arrow.RecordBatch, i int) ([]any, error) {
	key := make([]any, len(p.times))
	for t := range key {
		if key[t] = ValueAt(b.Column(t), i); key[t] == nil {
			return nil, sqlstate.New(sqlstate.NullValueNotAllowed, "%s: time column %s has NULL values",
				pivotName, p.src.Cols[p.times[t]].Name).WithHint("Filter them out in the source query.")
		}
	}
	return key, nil
}

// sameRow reports whether row i of b has the time values of row i-1 in
// its first k columns, comparing the Arrow values in place: the pivot reads
// a row per cell and boxes a row's times only when they change.
func sameRow(b arrow.RecordBatch, k, i int) bool {
	for t := range k {
		if !sameValue(b.Column(t), i-1, i) {
			return false
		}
	}
	return true
}

func sameValue(a arrow.Array, i, j int) bool {
	if a.IsNull(i) || a.IsNull(j) {
		return a.IsNull(i) && a.IsNull(j)
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(i) == a.Value(j)
	case *array.LargeString:
		return a.Value(i) == a.Value(j)
	case *array.StringView:
		return a.Value(i) == a.Value(j)
	case *array.Boolean:
		return a.Value(i) == a.Value(j)
	}
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok && fw.BitWidth()%8 == 0 {
		w, off := fw.BitWidth()/8, a.Data().Offset()
		buf := a.Data().Buffers()[1].Bytes()
		return bytes.Equal(buf[(off+i)*w:(off+i+1)*w], buf[(off+j)*w:(off+j+1)*w])
	}
	return ValueAt(a, i) == ValueAt(a, j)
}

func sameKey(a, b []any) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
