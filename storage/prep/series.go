//go:build duckdb_arrow

package prep

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// Wide is a bound Time x Entity source of train_gat: its time columns and
// its entity columns, read on R. A long source (see Long) binds as the
// wide source of its distinct times, with its entities beside.
type Wide struct {
	R        Reader
	Src      *Source
	Times    []int
	Entities []int
	OrderBy  string
	Long     *Long
}

// NewWide binds a wide source: every column that is not a time column
// (time := [...], or those found by Source.TimeColumns) is an entity and
// must be numeric.
func NewWide(r Reader, src *Source, time []string) (*Wide, error) {
	w := &Wide{R: r, Src: src}
	var err error
	if w.Times, err = src.TimeColumns(time); err != nil {
		return nil, err
	}
	for i, col := range src.Cols {
		if slices.Contains(w.Times, i) {
			continue
		}
		if !IsNumeric(col.Type.ID) {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: column %s has type %s; every column except the time columns is an entity and must be numeric",
				src.Fn, col.Name, col.Type.PGName()).WithHint("Name the time columns with time := [...], or leave the column out of the source.")
		}
		w.Entities = append(w.Entities, i)
	}
	if len(w.Entities) < 2 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d entity columns; a graph needs at least 2", src.Fn, len(w.Entities)).
			WithHint("The source has columns %s; time columns are %s.", src.ColumnList(), w.timeList())
	}
	if len(w.Times) > 0 {
		w.OrderBy = " ORDER BY " + src.IdentList(w.Times)
	}
	return w, nil
}

func (w *Wide) timeList() string {
	if len(w.Times) == 0 {
		return "none"
	}
	return w.Src.IdentList(w.Times)
}

// TimeNames are the names of the time columns.
func (w *Wide) TimeNames() []string {
	var names []string
	for _, i := range w.Times {
		names = append(names, w.Src.Cols[i].Name)
	}
	return names
}

// EntityNames are the entities: the entity columns' names, or a long
// source's entities.
func (w *Wide) EntityNames() []string {
	if w.Long != nil {
		return w.Long.Names
	}
	names := make([]string, len(w.Entities))
	for k, i := range w.Entities {
		names[k] = w.Src.Cols[i].Name
	}
	return names
}

// OrderLike puts the entity columns in the order of names when they are
// the same columns in another order; otherwise it leaves them as they are.
func (w *Wide) OrderLike(names []string) {
	if len(names) != len(w.Entities) || w.Long != nil {
		return
	}
	at := make(map[string]int, len(w.Entities))
	for _, i := range w.Entities {
		at[w.Src.Cols[i].Name] = i
	}
	ordered := make([]int, len(names))
	for k, name := range names {
		i, ok := at[name]
		if !ok {
			return
		}
		ordered[k] = i
	}
	w.Entities = ordered
}

// Rows counts the source's rows, one per time.
func (w *Wide) Rows(ctx context.Context) (int64, error) {
	return w.Src.ReadInt(ctx, w.R, "SELECT count(*) FROM "+w.Src.From)
}

// Matrix reads the entity columns in time order; NULL is an error.
func (w *Wide) Matrix(ctx context.Context) (series.Matrix, error) {
	if w.Long != nil {
		return w.Long.matrix(ctx, w)
	}
	exprs := make([]string, len(w.Entities))
	for k, i := range w.Entities {
		exprs[k] = "CAST(" + Ident(w.Src.Cols[i].Name) + " AS DOUBLE)"
	}
	r, err := w.R.Read(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+w.Src.From+w.OrderBy)
	if err != nil {
		return series.Matrix{}, w.Src.Wrap(err)
	}
	defer r.Close()
	m := series.Matrix{N: len(w.Entities)}
	for r.Next() {
		b := r.Batch()
		rows := int(b.NumRows())
		at := len(m.Values)
		m.Values = append(m.Values, make([]float64, rows*m.N)...)
		for k := range m.N {
			vals, valid := Floats(b.Column(k))
			for row := range rows {
				if !valid(row) || math.IsNaN(vals[row]) || math.IsInf(vals[row], 0) {
					return m, sqlstate.New(sqlstate.NullValueNotAllowed, "%s: column %s has a NULL or non-finite value in row %d (in time order)",
						w.Src.Fn, w.Src.Cols[w.Entities[k]].Name, m.T+row+1).WithHint("Fill the gaps first, for example with pivot_entity_time(..., missing := 'ffill').")
				}
				m.Values[at+row*m.N+k] = vals[row]
			}
		}
		m.T += rows
	}
	return m, w.Src.Wrap(r.Err())
}

// TimeKind is the kind of a time column of type id (see series.TimeInt).
func TimeKind(id storage.TypeID) string {
	switch {
	case id == storage.TypeDate:
		return series.TimeDate
	case id == storage.TypeTimestamp, id == storage.TypeTimestampS, id == storage.TypeTimestampMS, id == storage.TypeTimestampNS:
		return series.TimeTimestamp
	case IsNumeric(id) && id != storage.TypeFloat && id != storage.TypeDouble && id != storage.TypeDecimal:
		return series.TimeInt
	}
	return series.TimeOther
}

// TimeRows reads the time columns of every source row, in time order, as
// text in the form a GAT's time extrapolation reads, and their kinds; nil
// when the source has none.
func (w *Wide) TimeRows(ctx context.Context) (kinds []string, rows [][]string, err error) {
	if len(w.Times) == 0 {
		return nil, nil, nil
	}
	var exprs []string
	for _, i := range w.Times {
		col := w.Src.Cols[i]
		kind := TimeKind(col.Type.ID)
		kinds = append(kinds, kind)
		cast := map[string]string{series.TimeInt: "BIGINT", series.TimeDate: "DATE", series.TimeTimestamp: "TIMESTAMP", series.TimeOther: "VARCHAR"}[kind]
		exprs = append(exprs, "CAST(CAST("+Ident(col.Name)+" AS "+cast+") AS VARCHAR)")
	}
	r, err := w.R.Read(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+w.Src.From+w.OrderBy)
	if err != nil {
		return nil, nil, w.Src.Wrap(err)
	}
	defer r.Close()
	for r.Next() {
		b := r.Batch()
		for row := range int(b.NumRows()) {
			vals := make([]string, len(exprs))
			for k := range exprs {
				if v, ok := ValueAt(b.Column(k), row).(string); ok {
					vals[k] = v
				}
			}
			rows = append(rows, vals)
		}
	}
	return kinds, rows, w.Src.Wrap(r.Err())
}
