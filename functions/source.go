//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/prep"
)

// source is a function's input: a table or view name, or a query, and the
// columns it has.
type source struct {
	fn   string
	text string // as the caller gave it
	from string // a FROM item that reads it
	cols []storage.Column
}

// openSource resolves text, which is a table or view name or a query, and
// describes its columns without reading it.
func openSource(ctx context.Context, c *call, fn, text string) (*source, error) {
	s := &source{fn: fn, text: text, from: fromItem(text, c.plan)}
	cols, err := c.caller.Describe(ctx, "SELECT * FROM "+s.from, c.setup...)
	if err != nil {
		return nil, s.wrap(err)
	}
	s.cols = cols
	return s, nil
}

// temporaryHint explains the one table a source cannot name though the
// session sees it.
const temporaryHint = prep.TemporaryHint

// prep is the source as package prep reads it.
func (s *source) prep() *prep.Source {
	return &prep.Source{Fn: s.fn, Text: s.text, From: s.from, Cols: s.cols}
}

// fromItem is text as a FROM item (see prep.FromItem).
func fromItem(text string, plan Planner) string { return prep.FromItem(text, plan) }

// wrap makes an error of a query Mallard ran on the source read as the
// function's own (see prep.Source.Wrap).
func (s *source) wrap(err error) error { return s.prep().Wrap(err) }

// column returns the source column named name; the error names the
// argument that asked for it (see prep.Source.Column).
func (s *source) column(arg, name string) (int, error) { return s.prep().Column(arg, name) }

func (s *source) columnList() string { return s.prep().ColumnList() }

// timeColumns returns the indexes of the time columns (see
// prep.Source.TimeColumns).
func (s *source) timeColumns(given []string) ([]int, error) { return s.prep().TimeColumns(given) }

func isNumeric(id storage.TypeID) bool { return prep.IsNumeric(id) }

// ident quotes a column name for Mallard's queries on the source.
func ident(name string) string { return prep.Ident(name) }

// identList quotes the names of the columns at idx, comma-separated.
func (s *source) identList(idx []int) string { return s.prep().IdentList(idx) }
