//go:build duckdb_arrow

package functions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
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

// fromItem is text as a FROM item: a query, planned as the client's
// statements are and in parentheses, or the name as written.
func fromItem(text string, plan Planner) string {
	t := strings.TrimSpace(text)
	first, _, _ := strings.Cut(strings.ToLower(t), " ")
	switch {
	case strings.HasPrefix(t, "("):
		return "(" + plan(t) + ") AS mallard_source"
	case slices.Contains([]string{"select", "with", "from", "values", "table", "pivot", "unpivot"}, strings.TrimSpace(first)):
		return "(" + plan(t) + ") AS mallard_source"
	}
	return t
}

// wrap makes an error of a query Mallard ran on the source read as the
// function's own: the position would point into Mallard's query text, not
// the client's, so it is dropped.
func (s *source) wrap(err error) error {
	var e *sqlstate.Error
	if !errors.As(err, &e) {
		return err
	}
	if e.Code == sqlstate.QueryCanceled {
		return e
	}
	c := *e
	c.Position = 0
	c.Message = fmt.Sprintf("%s: source %s: %s", s.fn, quote(s.text), e.Message)
	if e.Code == sqlstate.UndefinedTable {
		c.Hint = strings.TrimSpace(e.Hint + " " + temporaryHint)
	}
	return &c
}

// temporaryHint explains the one table a source cannot name though the
// session sees it.
const temporaryHint = "If it is a temporary table: Mallard's functions read their source on a connection of their own, " +
	"which does not see the session's temporary tables; create it as a regular table (CREATE TABLE ... AS) instead."

// column returns the source column named name (case-insensitively, as
// DuckDB resolves names); the error names the argument that asked for it.
func (s *source) column(arg, name string) (int, error) {
	for i, c := range s.cols {
		if c.Name == name {
			return i, nil
		}
	}
	for i, c := range s.cols {
		if strings.EqualFold(c.Name, name) {
			return i, nil
		}
	}
	return -1, sqlstate.New(sqlstate.UndefinedColumn, "%s: %s := %s names no column of the source", s.fn, arg, quote(name)).
		WithHint("The source has columns %s.", s.columnList())
}

func (s *source) columnList() string {
	names := make([]string, len(s.cols))
	for i, c := range s.cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// timeNames are the column names taken as time columns by default.
var timeNames = []string{"year", "quarter", "month", "week", "day", "date", "time", "ts", "period"}

// timeColumns returns the indexes of the time columns: those named by the
// argument time when given, else those of a date or time type or with one
// of timeNames.
func (s *source) timeColumns(given []string) ([]int, error) {
	if given != nil {
		idx := make([]int, len(given))
		for i, name := range given {
			var err error
			if idx[i], err = s.column("time", name); err != nil {
				return nil, err
			}
		}
		return idx, nil
	}
	var idx []int
	for i, c := range s.cols {
		if isTemporal(c.Type.ID) || slices.Contains(timeNames, strings.ToLower(c.Name)) {
			idx = append(idx, i)
		}
	}
	return idx, nil
}

func isTemporal(id storage.TypeID) bool {
	switch id {
	case storage.TypeDate, storage.TypeTimestamp, storage.TypeTimestampTZ, storage.TypeTimestampS,
		storage.TypeTimestampMS, storage.TypeTimestampNS, storage.TypeTime, storage.TypeTimeTZ:
		return true
	}
	return false
}

func isNumeric(id storage.TypeID) bool {
	switch id {
	case storage.TypeTinyInt, storage.TypeSmallInt, storage.TypeInteger, storage.TypeBigInt, storage.TypeHugeInt,
		storage.TypeUTinyInt, storage.TypeUSmallInt, storage.TypeUInteger, storage.TypeUBigInt, storage.TypeUHugeInt,
		storage.TypeFloat, storage.TypeDouble, storage.TypeDecimal:
		return true
	}
	return false
}

// ident quotes a column name for Mallard's queries on the source.
func ident(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// identList quotes the names of the columns at idx, comma-separated.
func (s *source) identList(idx []int) string {
	q := make([]string, len(idx))
	for i, j := range idx {
		q[i] = ident(s.cols[j].Name)
	}
	return strings.Join(q, ", ")
}
