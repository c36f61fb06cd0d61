//go:build duckdb_arrow

package functions

import (
	"context"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
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
	items, err := s.history(o.History)
	if err != nil {
		return nil, err
	}
	vals := make([]float32, len(items))
	for i := range vals {
		vals[i] = s.HistoryRating()
	}
	k, exclude, method := o.K, o.ExcludeSeen, o.Method
	return s.recTable(c, recommendForName, o.Items, func(ctx context.Context) ([]recommender.Scored, error) {
		return s.rankBy(ctx, recommendForName, method, items, vals, k, exclude)
	})
}

// maxUnknownShown is the most unknown ids an error lists.
const maxUnknownShown = 10

// history returns the item indices of the ids, increasing and each once,
// or a 22023 error if there are none or some are not items of the model.
func (s *storedRec) history(ids []any) ([]int32, error) {
	if len(ids) == 0 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: history := [] is empty; give the ids of the items the user interacted with",
			recommendForName).WithHint("Without a history, recommend('%s', user_id := ..., fallback := 'popular') gives a user the model does not know the most popular items.", s.ref)
	}
	var items []int32
	var unknown []string
	for _, v := range ids {
		j, ok := s.Item(v)
		if !ok {
			unknown = append(unknown, describeID(v))
			continue
		}
		items = append(items, int32(j))
	}
	if len(unknown) > 0 {
		shown := unknown[:min(len(unknown), maxUnknownShown)]
		err := sqlstate.New(sqlstate.InvalidParameterValue, "%s: history has %d ids that are not items %s was trained on: %s",
			recommendForName, len(unknown), s.ref, strings.Join(shown, ", ")).WithDetail("It knows %d items.", s.Model.ItemIDs.Len())
		return nil, err
	}
	slices.Sort(items)
	return slices.Compact(items), nil
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
	j, ok := s.Item(o.Item)
	if !ok {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: item %s is not an item %s was trained on",
			similarItemsName, describeID(o.Item), s.ref).WithDetail("It knows %d items.", s.Model.ItemIDs.Len())
	}
	k := o.K
	return s.recTable(c, similarItemsName, o.Items, func(context.Context) ([]recommender.Scored, error) {
		return s.Model.Similar(j, k), nil
	})
}
