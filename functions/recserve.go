//go:build duckdb_arrow

package functions

import (
	"context"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/storage/prep"
)

const recommendName = "recommend"

// maxK is the most recommendations one call returns.
const maxK = 100_000

func recommendFunction() tableFunction {
	return typedFunction(recommendName, nil, bindRecommend, nil)
}

// loadRec reads the recommender version ref names, decoded once and then
// kept while it is unchanged (see registry.Registry.Decoded).
func loadRec(ctx context.Context, c *call, fn string, ref mlops.Ref) (*recommender.Version, error) {
	m, v, err := c.reg.Decoded(ctx, recommenderKind, ref, func(data []byte) (any, error) { return recommender.DecodeStored(data) })
	if err != nil {
		return nil, registryError(fn, err)
	}
	return &recommender.Version{Stored: v.(*recommender.Stored), Ref: m.Ref, Metrics: m.Metrics}, nil
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
	if err := s.CheckUser(recommendName, o.UserID, o.Fallback); err != nil {
		return nil, err
	}
	return recTable(c, s, recommendName, o.Items, func(ctx context.Context) ([]recommender.Scored, error) {
		return s.Recommend(ctx, recommendName, o.UserID, o.K, o.ExcludeSeen, o.Fallback, o.Method)
	})
}

// bindRec loads the recommender version fn's model and version arguments name.
func bindRec(c *call, fn string, mv modelVersion) (*recommender.Version, error) {
	ref, err := mv.ref(fn)
	if err != nil {
		return nil, err
	}
	return loadRec(c.ctx(), c, fn, ref)
}

// recTable is the table of recommend, recommend_for and similar_items:
// rank, item and score of the items rank returns when it is read, then the
// columns of the items table itemsArg names, if it is not "" (see
// prep.Items).
func recTable(c *call, s *recommender.Version, fn, itemsArg string, rank func(context.Context) ([]recommender.Scored, error)) (*table, error) {
	cols := []duckdb.ColumnInfo{{Name: "rank", T: bigintType()}, {Name: "item", T: idTypeInfo(s.Columns.ItemIsText)},
		{Name: "score", T: doubleType()}}
	var items *prep.Items
	if itemsArg != "" {
		src, err := openSource(c.ctx(), c, fn, itemsArg)
		if err != nil {
			return nil, err
		}
		if items, err = prep.NewItems(src.prep(), s.Columns); err != nil {
			return nil, err
		}
		cols = append(cols, items.Cols...)
	}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) {
		recs, err := rank(ctx)
		if err != nil {
			return nil, err
		}
		var extra map[any][]any
		if items != nil {
			ids := make([]recommender.ID, len(recs))
			for i, r := range recs {
				ids[i] = s.Model.ItemIDs.At(r.Item)
			}
			if extra, err = items.Lookup(ctx, engine{c}, ids, s.Columns.ItemIsText); err != nil {
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
					vals = make([]any, len(items.Cols))
				}
				rows[i] = append(rows[i], vals...)
			}
		}
		return rowsRun(rows), nil
	}}, nil
}
