//go:build duckdb_arrow

package storage

import (
	"context"
	"strings"
)

// Parquet is a scan of Parquet files as one table (DuckDB's read_parquet
// over the list, columns unified by name): how training ranks read the
// files the SQL server exported, so that no layer above this one writes
// SQL text to do it.
type Parquet struct {
	Files []string
	// Columns are read in this order, each cast to its type (see Cast).
	Columns []Cast
	// OrderBy are column names the rows are sorted by, ascending; none
	// keeps the files' order.
	OrderBy []string
}

// Cast is a column read as a type: its values are cast to Type
// (VARCHAR, DOUBLE, BIGINT, ...) as SQL's CAST does, NULL staying NULL.
type Cast struct {
	Column string
	Type   TypeID
}

// Describe gives the columns the files have, with their types.
func (p Parquet) Describe(ctx context.Context, d *DB) ([]Column, error) {
	return d.Describe(ctx, "SELECT * FROM "+p.from())
}

// Read streams the cast columns of every row, in OrderBy's order.
func (p Parquet) Read(ctx context.Context, d *DB) (*Reader, error) {
	exprs := make([]string, len(p.Columns))
	for i, c := range p.Columns {
		exprs[i] = "CAST(" + quoteIdent(c.Column) + " AS " + Type{ID: c.Type}.String() + ")"
	}
	q := "SELECT " + strings.Join(exprs, ", ") + " FROM " + p.from()
	if len(p.OrderBy) > 0 {
		keys := make([]string, len(p.OrderBy))
		for i, k := range p.OrderBy {
			keys[i] = quoteIdent(k)
		}
		q += " ORDER BY " + strings.Join(keys, ", ")
	}
	return d.Read(ctx, q)
}

func (p Parquet) from() string {
	files := make([]string, len(p.Files))
	for i, f := range p.Files {
		files[i] = quoteLiteral(f)
	}
	return "read_parquet([" + strings.Join(files, ", ") + "])"
}
