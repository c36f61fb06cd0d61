//go:build duckdb_arrow

package prep

import (
	"context"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// Items is the items argument of the functions that return a
// recommender's items (recommend, recommend_for, similar_items): a table
// with a column named as the model's item column, whose other columns
// they add to their own.
type Items struct {
	src   *Source
	key   string // the item column
	exprs []string
	// Cols are the columns added, in the table's order.
	Cols []duckdb.ColumnInfo
}

// NewItems finds the item column of src, whose argument items := was
// given as text, and the columns it adds: every other column but those
// named as the functions' own (rank, item, score).
func NewItems(src *Source, cols recommender.Columns) (*Items, error) {
	t := &Items{src: src}
	for i, col := range src.Cols {
		if strings.EqualFold(col.Name, cols.Item) {
			t.key = col.Name
			continue
		}
		switch strings.ToLower(col.Name) {
		case "rank", "item", "score": // the functions' own columns
			continue
		}
		expr, typ, err := src.PassThrough(i)
		if err != nil {
			return nil, err
		}
		t.exprs = append(t.exprs, expr)
		t.Cols = append(t.Cols, duckdb.ColumnInfo{Name: col.Name, T: typ})
	}
	if t.key == "" {
		return nil, sqlstate.New(sqlstate.UndefinedColumn, "%s: items := %s has no column %s, the item column the model was trained on",
			src.Fn, Quote(src.Text), cols.Item).WithHint("It has columns %s; select the item column as %s.", src.ColumnList(), Ident(cols.Item))
	}
	return t, nil
}

// Lookup reads the table's rows of the items ids, by item id (an int64
// or a string, as the ids are): the first row of an item the table has
// twice, and none of an item it lacks.
func (t *Items) Lookup(ctx context.Context, r Reader, ids []recommender.ID, isText bool) (map[any][]any, error) {
	out := map[any][]any{}
	if len(ids) == 0 {
		return out, nil
	}
	lits := make([]string, len(ids))
	for i, id := range ids {
		lits[i] = id.String()
		if id.IsText {
			lits[i] = Quote(id.Text)
		}
	}
	key := "CAST(" + Ident(t.key) + " AS " + IDType(isText) + ")"
	query := "SELECT " + strings.Join(append([]string{key}, t.exprs...), ", ") + " FROM " + t.src.From +
		" WHERE " + key + " IN (" + strings.Join(lits, ", ") + ")"
	rd, err := r.Read(ctx, query)
	if err != nil {
		return nil, t.src.Wrap(err)
	}
	defer rd.Close()
	for rd.Next() {
		b := rd.Batch()
		keys := IDColumn(b.Column(0))
		for row := range int(b.NumRows()) {
			id := keys(row)
			if id == nil {
				continue
			}
			var k any = id.Int
			if id.IsText {
				k = id.Text
			}
			if _, dup := out[k]; dup {
				continue
			}
			vals := make([]any, len(t.exprs))
			for col := range vals {
				vals[col] = ValueAt(b.Column(col+1), row)
			}
			out[k] = vals
		}
	}
	return out, t.src.Wrap(rd.Err())
}
