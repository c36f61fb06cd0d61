//go:build duckdb_arrow

// Package prep is the engine's side of Mallard's data preparation: a
// function's source (a table or a query) described, quoted and read, and
// the statements behind pivot_entity_time (the aggregation into a grid,
// its duplicate and missing cells) and rescale and unscale (the training
// moments, the scaled rows, the store of saved scalers). It builds and
// runs the SQL; package functions binds the calls and writes the output,
// and mlops/scale does the math.
package prep

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// Reader runs a query on a connection of its own, as the calling session
// would (see storage.Caller.Read).
type Reader interface {
	Read(ctx context.Context, query string) (*storage.Reader, error)
}

// Source is a function's input: a table or view name, or a query, and the
// columns it has.
type Source struct {
	Fn   string // the function, for messages
	Text string // as the caller gave it
	From string // a FROM item that reads it
	Cols []storage.Column
}

// FromItem is text as a FROM item: a query, planned by plan as the
// client's statements are and in parentheses, or the name as written.
func FromItem(text string, plan func(string) string) string {
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

// Wrap makes an error of a query Mallard ran on the source read as the
// function's own: the position would point into Mallard's query text, not
// the client's, so it is dropped.
func (s *Source) Wrap(err error) error {
	var e *sqlstate.Error
	if !errors.As(err, &e) {
		return err
	}
	if e.Code == sqlstate.QueryCanceled {
		return e
	}
	c := *e
	c.Position = 0
	c.Message = fmt.Sprintf("%s: source %s: %s", s.Fn, Quote(s.Text), e.Message)
	if e.Code == sqlstate.UndefinedTable {
		c.Hint = strings.TrimSpace(e.Hint + " " + TemporaryHint)
	}
	return &c
}

// TemporaryHint explains the one table a source cannot name though the
// session sees it.
const TemporaryHint = "If it is a temporary table: Mallard's functions read their source on a connection of their own, " +
	"which does not see the session's temporary tables; create it as a regular table (CREATE TABLE ... AS) instead."

// Column returns the source column named name (case-insensitively, as
// DuckDB resolves names); the error names the argument that asked for it.
func (s *Source) Column(arg, name string) (int, error) {
	for i, c := range s.Cols {
		if c.Name == name {
			return i, nil
		}
	}
	for i, c := range s.Cols {
		if strings.EqualFold(c.Name, name) {
			return i, nil
		}
	}
	return -1, sqlstate.New(sqlstate.UndefinedColumn, "%s: %s := %s names no column of the source", s.Fn, arg, Quote(name)).
		WithHint("The source has columns %s.", s.ColumnList())
}

// ColumnList is the source's column names, comma-separated.
func (s *Source) ColumnList() string {
	names := make([]string, len(s.Cols))
	for i, c := range s.Cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// timeNames are the column names taken as time columns by default.
var timeNames = []string{"year", "quarter", "month", "week", "day", "date", "time", "ts", "period"}

// TimeColumns returns the indexes of the time columns: those named by the
// argument time when given, else those of a date or time type or with one
// of timeNames.
func (s *Source) TimeColumns(given []string) ([]int, error) {
	if given != nil {
		idx := make([]int, len(given))
		for i, name := range given {
			var err error
			if idx[i], err = s.Column("time", name); err != nil {
				return nil, err
			}
		}
		return idx, nil
	}
	var idx []int
	for i, c := range s.Cols {
		if IsTemporal(c.Type.ID) || slices.Contains(timeNames, strings.ToLower(c.Name)) {
			idx = append(idx, i)
		}
	}
	return idx, nil
}

// IsTemporal reports whether id is a date or time type.
func IsTemporal(id storage.TypeID) bool {
	switch id {
	case storage.TypeDate, storage.TypeTimestamp, storage.TypeTimestampTZ, storage.TypeTimestampS,
		storage.TypeTimestampMS, storage.TypeTimestampNS, storage.TypeTime, storage.TypeTimeTZ:
		return true
	}
	return false
}

// IsNumeric reports whether id is an integer, floating-point or decimal type.
func IsNumeric(id storage.TypeID) bool {
	switch id {
	case storage.TypeTinyInt, storage.TypeSmallInt, storage.TypeInteger, storage.TypeBigInt, storage.TypeHugeInt,
		storage.TypeUTinyInt, storage.TypeUSmallInt, storage.TypeUInteger, storage.TypeUBigInt, storage.TypeUHugeInt,
		storage.TypeFloat, storage.TypeDouble, storage.TypeDecimal:
		return true
	}
	return false
}

// Ident quotes a column name for Mallard's queries on the source.
func Ident(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// IdentList quotes the names of the columns at idx, comma-separated.
func (s *Source) IdentList(idx []int) string {
	q := make([]string, len(idx))
	for i, j := range idx {
		q[i] = Ident(s.Cols[j].Name)
	}
	return strings.Join(q, ", ")
}

// ReadInt reads the BIGINT that query, on s, returns in its first row.
func (s *Source) ReadInt(ctx context.Context, r Reader, query string) (int64, error) {
	rd, err := r.Read(ctx, query)
	if err != nil {
		return 0, s.Wrap(err)
	}
	defer rd.Close()
	var n int64
	for rd.Next() {
		if b := rd.Batch(); b.NumRows() > 0 {
			n = b.Column(0).(*array.Int64).Value(0)
		}
	}
	return n, s.Wrap(rd.Err())
}
