//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops/recommender"
)

const (
	recommendForName = "recommend_for"
	similarItemsName = "similar_items"
)

func recommendForFunction() tableFunction {
	return typedFunction(recommendForName, nil, bindRecommendFor, nil)
}

// bindRecommendFor is recommend_for: recommend for a user the model never
// saw, whose history is a list of item ids, each going in as a rating of
// HistoryRating (fold-in: the history is the model's input row).
func bindRecommendFor(c *call, o *recommendForArgs) (*table, error) {
	s, err := bindRec(c, recommendForName, o.modelVersion)
	if err != nil {
		return nil, err
	}
	items, err := s.History(recommendForName, o.History)
	if err != nil {
		return nil, err
	}
	vals := make([]float32, len(items))
	for i := range vals {
		vals[i] = s.HistoryRating()
	}
	k, exclude, method := o.K, o.ExcludeSeen, o.Method
	return recTable(c, s, recommendForName, o.Items, func(ctx context.Context) ([]recommender.Scored, error) {
		return s.RankBy(ctx, recommendForName, method, items, vals, k, exclude)
	})
}

func similarItemsFunction() tableFunction {
	return typedFunction(similarItemsName, nil, bindSimilarItems, nil)
}

// bindSimilarItems is similar_items: the items nearest an item by the
// cosine of the model's decoder embeddings (see recommender.Model.Similar).
func bindSimilarItems(c *call, o *similarArgs) (*table, error) {
	s, err := bindRec(c, similarItemsName, o.modelVersion)
	if err != nil {
		return nil, err
	}
	j, err := s.ItemIndex(similarItemsName, o.Item)
	if err != nil {
		return nil, err
	}
	k := o.K
	return recTable(c, s, similarItemsName, o.Items, func(context.Context) ([]recommender.Scored, error) {
		return s.Model.Similar(j, k), nil
	})
}
