//go:build duckdb_arrow

package functions

import (
	"context"
	"math"
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
	return tableFunction{
		sig: signature{fn: recommendForName, positional: []param{{name: "model", kind: kindText, required: true}},
			named: []param{
				{name: "history", kind: kindIDList, required: true},
				{name: "k", kind: kindInt, min: 1, max: maxK, def: int64(10)},
				{name: "exclude_seen", kind: kindBool, def: true},
				{name: "items", kind: kindText},
				{name: "method", kind: kindText, choices: recMethods(), def: methodModel},
				{name: "version", kind: kindInt, min: 1, max: 1 << 31},
			}},
		bind: bindRecommendFor,
	}
}

// bindRecommendFor is recommend_for: recommend for a user the model never
// saw, whose history is a list of item ids, each going in as a rating of
// historyRating (fold-in: the history is the model's input row).
func bindRecommendFor(c *call, a args) (*table, error) {
	s, err := bindRec(c, recommendForName, a)
	if err != nil {
		return nil, err
	}
	items, err := s.history(a.ids("history"))
	if err != nil {
		return nil, err
	}
	vals := make([]float32, len(items))
	for i := range vals {
		vals[i] = s.historyRating()
	}
	k, exclude, method := int(a.int("k")), a.bool("exclude_seen"), a.text("method")
	return s.recTable(c, recommendForName, a, func(ctx context.Context) ([]recommender.Scored, error) {
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
		j, ok := s.item(v)
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
	return tableFunction{
		sig: signature{fn: similarItemsName, positional: []param{{name: "model", kind: kindText, required: true},
			{name: "item", kind: kindID, required: true, min: math.MinInt64, max: math.MaxInt64}},
			named: []param{
				{name: "k", kind: kindInt, min: 1, max: maxK, def: int64(10)},
				{name: "items", kind: kindText},
				{name: "version", kind: kindInt, min: 1, max: 1 << 31},
			}},
		bind: bindSimilarItems,
	}
}

// bindSimilarItems is similar_items: the items nearest an item by the
// cosine of the model's decoder embeddings (see recommender.Model.Similar).
func bindSimilarItems(c *call, a args) (*table, error) {
	s, err := bindRec(c, similarItemsName, a)
	if err != nil {
		return nil, err
	}
	j, ok := s.item(a.value("item"))
	if !ok {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: item %s is not an item %s was trained on",
			similarItemsName, describeID(a.value("item")), s.ref).WithDetail("It knows %d items.", s.Model.ItemIDs.Len())
	}
	k := int(a.int("k"))
	return s.recTable(c, similarItemsName, a, func(context.Context) ([]recommender.Scored, error) {
		return s.Model.Similar(j, k), nil
	})
}
