//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

const recommendName = "recommend"

// maxK is the most recommendations one call returns.
const maxK = 100_000

func recommendFunction() tableFunction {
	return typedFunction(recommendName, nil, bindRecommend, nil)
}

// storedRec is a recommender version as the registry keeps it.
type storedRec struct {
	*recommender.Stored
	ref     mlops.Ref
	metrics string
}

// loadRec reads the recommender version ref names, decoded once and then
// kept while it is unchanged (see registry.Registry.Decoded).
func loadRec(ctx context.Context, c *call, fn string, ref mlops.Ref) (*storedRec, error) {
	m, v, err := c.reg.Decoded(ctx, recommenderKind, ref, func(data []byte) (any, error) { return recommender.DecodeStored(data) })
	if err != nil {
		return nil, registryError(fn, err)
	}
	return &storedRec{Stored: v.(*recommender.Stored), ref: m.Ref, metrics: m.Metrics}, nil
}

// checkUser fails unless the model knows user v or fallback is "popular".
func (s *storedRec) checkUser(fn string, v any, fallback string) error {
	if _, ok := s.User(v); ok || fallback == "popular" {
		return nil
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: user_id := %v is not a user %s was trained on", fn, describeID(v), s.ref).
		WithDetail("It knows %d users.", s.Model.UserIDs.Len()).
		WithHint("fallback := 'popular' recommends the most popular items to users it does not know.")
}

// recommend returns user v's k best items by method; a user the model
// does not know gets the most popular items when fallback is "popular",
// else an error.
func (s *storedRec) recommend(ctx context.Context, fn string, v any, k int, excludeSeen bool, fallback, method string) ([]recommender.Scored, error) {
	u, ok := s.User(v)
	if !ok {
		if err := s.checkUser(fn, v, fallback); err != nil {
			return nil, err
		}
		return s.Popular(nil, k, false), nil
	}
	items, vals := recommender.Known(s.Train, s.Test, u)
	return s.rankBy(ctx, fn, method, items, vals, k, excludeSeen)
}

func describeID(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	return fmt.Sprint(v)
}

func idTypeInfo(isText bool) duckdb.TypeInfo {
	if isText {
		return varcharType()
	}
	return bigintType()
}

func bindRecommend(c *call, o *recommendArgs) (*table, error) {
	s, err := bindRec(c, recommendName, o.modelVersion)
	if err != nil {
		return nil, err
	}
	if err := s.checkUser(recommendName, o.UserID, o.Fallback); err != nil {
		return nil, err
	}
	return s.recTable(c, recommendName, o.Items, func(ctx context.Context) ([]recommender.Scored, error) {
		return s.recommend(ctx, recommendName, o.UserID, o.K, o.ExcludeSeen, o.Fallback, o.Method)
	})
}

// bindRec loads the recommender version fn's model and version arguments name.
func bindRec(c *call, fn string, mv modelVersion) (*storedRec, error) {
	ref, err := mv.ref(fn)
	if err != nil {
		return nil, err
	}
	return loadRec(c.ctx(), c, fn, ref)
}

// recTable is the table of recommend, recommend_for and similar_items:
// rank, item and score of the items rank returns when it is read, then the
// columns of the items table itemsArg names, if it is not "".
func (s *storedRec) recTable(c *call, fn, itemsArg string, rank func(context.Context) ([]recommender.Scored, error)) (*table, error) {
	cols := []duckdb.ColumnInfo{{Name: "rank", T: bigintType()}, {Name: "item", T: idTypeInfo(s.Columns.ItemIsText)},
		{Name: "score", T: doubleType()}}
	var items *itemTable
	if itemsArg != "" {
		var err error
		if items, err = openItems(c, fn, itemsArg, s.Columns); err != nil {
			return nil, err
		}
		cols = append(cols, items.cols...)
	}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) {
		recs, err := rank(ctx)
		if err != nil {
			return nil, err
		}
		var extra map[any][]any
		if items != nil {
			if extra, err = items.lookup(ctx, c, s, recs); err != nil {
				return nil, err
			}
		}
		rows := make([][]any, len(recs))
		for i, r := range recs {
			id := s.ItemValue(r.Item)
			rows[i] = []any{int64(i + 1), id, r.Score}
			if items != nil {
				vals, ok := extra[id]
				if !ok {
					vals = make([]any, len(items.cols))
				}
				rows[i] = append(rows[i], vals...)
			}
		}
		return rowsRun(rows), nil
	}}, nil
}

// itemTable is the items argument of recommend: a table with a column
// named as the model's item column, whose other columns recommend adds.
type itemTable struct {
	src   *source
	key   string // the item column
	exprs []string
	cols  []duckdb.ColumnInfo
}

func openItems(c *call, fn, text string, rc recommender.Columns) (*itemTable, error) {
	src, err := openSource(c.ctx(), c, fn, text)
	if err != nil {
		return nil, err
	}
	t := &itemTable{src: src}
	for i, col := range src.cols {
		if strings.EqualFold(col.Name, rc.Item) {
			t.key = col.Name
			continue
		}
		switch strings.ToLower(col.Name) {
		case "rank", "item", "score": // recommend's own columns
			continue
		}
		expr, typ, err := src.passThrough(i)
		if err != nil {
			return nil, err
		}
		t.exprs = append(t.exprs, expr)
		t.cols = append(t.cols, duckdb.ColumnInfo{Name: col.Name, T: typ})
	}
	if t.key == "" {
		return nil, sqlstate.New(sqlstate.UndefinedColumn, "%s: items := %s has no column %s, the item column the model was trained on",
			fn, quote(text), rc.Item).WithHint("It has columns %s; select the item column as %s.", src.columnList(), ident(rc.Item))
	}
	return t, nil
}

// lookup reads the items table's rows of the recommended items, by item id.
func (t *itemTable) lookup(ctx context.Context, c *call, s *storedRec, recs []recommender.Scored) (map[any][]any, error) {
	out := map[any][]any{}
	if len(recs) == 0 {
		return out, nil
	}
	ids := make([]string, len(recs))
	for i, r := range recs {
		id := s.Model.ItemIDs.At(r.Item)
		ids[i] = id.String()
		if id.IsText {
			ids[i] = quote(id.Text)
		}
	}
	key := "CAST(" + ident(t.key) + " AS " + idType(s.Columns.ItemIsText) + ")"
	query := "SELECT " + strings.Join(append([]string{key}, t.exprs...), ", ") + " FROM " + t.src.from +
		" WHERE " + key + " IN (" + strings.Join(ids, ", ") + ")"
	rd, err := c.read(ctx, query)
	if err != nil {
		return nil, t.src.wrap(err)
	}
	defer rd.Close()
	for rd.Next() {
		b := rd.Batch()
		keys := idColumn(b.Column(0))
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
				continue // the first row of an item that appears twice
			}
			vals := make([]any, len(t.exprs))
			for col := range vals {
				vals[col] = valueAt(b.Column(col+1), row)
			}
			out[k] = vals
		}
	}
	return out, t.src.wrap(rd.Err())
}
