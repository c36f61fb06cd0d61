//go:build duckdb_arrow

package functions

import (
	"context"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/prep"
)

const pivotName = "pivot_entity_time"

func pivotFunction() tableFunction {
	return typedFunction(pivotName, nil, bindPivot, nil)
}

// bindPivot binds a pivot_entity_time call to package prep's pivot, which
// resolves the columns and reads the entities, the output's columns.
func bindPivot(c *call, o *pivotArgs) (*table, error) {
	src, err := openSource(c.ctx(), c, pivotName, o.Source)
	if err != nil {
		return nil, err
	}
	p, err := prep.NewPivot(src.prep(), prep.PivotSpec{Entity: o.Entity, Value: o.Value, Time: o.Time, Agg: o.Agg,
		Missing: o.Missing, Duplicates: o.Duplicates, AggGiven: o.explicit(&o.Agg)})
	if err != nil {
		return nil, err
	}
	if err := p.FindEntities(c.ctx(), engine{c}, o.MaxEntities); err != nil {
		return nil, err
	}
	return &table{cols: p.Columns(), open: func(ctx context.Context) (*run, error) {
		g, release, err := p.Grid(ctx, engine{c}, c.db.Budget())
		if err != nil {
			return nil, err
		}
		next := 0
		return &run{fill: func(chunk duckdb.DataChunk) (int, error) {
			n := min(g.Rows()-next, duckdb.GetDataChunkCapacity())
			err := writeGrid(chunk, g, next, n)
			next += n
			return n, err
		}, close: release}, nil
	}}, nil
}

// writeGrid writes rows from..from+n of the grid into chunk rows 0..n.
func writeGrid(chunk duckdb.DataChunk, g *prep.Grid, from, n int) error {
	if n == 0 {
		return nil
	}
	k := len(g.Times[0])
	for r := range n {
		for t, v := range g.Times[from+r] {
			if err := chunk.SetValue(t, r, v); err != nil {
				return err
			}
		}
	}
	w, err := newChunkWriter(chunk, k+g.Width)
	if err != nil {
		return err
	}
	for e := range g.Width {
		dst := w.doubles(k+e, n) // nil: the statement does not read the column
		for r := range dst {
			cell := (from+r)*g.Width + e
			dst[r] = g.Cells[cell]
			if !g.Have[cell] {
				if err := chunk.SetValue(k+e, r, nil); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// engine is a call's connection as package prep reads through it.
type engine struct{ c *call }

func (e engine) Read(ctx context.Context, query string) (*storage.Reader, error) {
	return e.c.read(ctx, query)
}
func (e engine) Notice(message string) { e.c.caller.Notice(message) }
