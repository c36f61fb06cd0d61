package recommender

import (
	"context"
	"strconv"
	"strings"
)

// The methods a stored version ranks items by (see Stored.Rank).
const (
	MethodModel      = "model"
	MethodEASE       = EASEMethod
	MethodPopularity = "popularity"
)

// Methods are the methods a stored version ranks items by.
func Methods() []string { return []string{MethodModel, MethodEASE, MethodPopularity} }

// IDOf is the id v (an int64 or a string) names in a column of text ids
// or of integers: a text id of an integer column, or the reverse, is
// converted; false if it cannot be.
func IDOf(v any, isText bool) (ID, bool) {
	switch x := v.(type) {
	case int64:
		if isText {
			return Text(strconv.FormatInt(x, 10)), true
		}
		return Int(x), true
	case string:
		if isText {
			return Text(x), true
		}
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return Int(n), err == nil
	}
	return ID{}, false
}

// User returns the index of the user id v (an int64 or a string) names,
// and false if the version does not know the user: a user without
// ratings on either side is not known.
func (a *Stored) User(v any) (int, bool) {
	id, ok := IDOf(v, a.Columns.UserIsText)
	if !ok {
		return 0, false
	}
	u, ok := a.Model.UserIDs.Index(id)
	if ok && a.Train.Ptr[u+1] == a.Train.Ptr[u] && a.Test.Ptr[u+1] == a.Test.Ptr[u] {
		return 0, false
	}
	return u, ok
}

// Item returns the index of the item id v (an int64 or a string) names,
// and false if the version does not know the item.
func (a *Stored) Item(v any) (int, bool) {
	id, ok := IDOf(v, a.Columns.ItemIsText)
	if !ok {
		return 0, false
	}
	return a.Model.ItemIDs.Index(id)
}

// ItemValue is item j's id as the version's item column holds it: an
// int64 or a string.
func (a *Stored) ItemValue(j int) any {
	id := a.Model.ItemIDs.At(j)
	if id.IsText {
		return id.Text
	}
	return id.Int
}

// Rank returns the k best items by method (one of Methods) for a user
// whose known ratings are vals of items (increasing), the user's own
// items left out with excludeSeen. EASE's refusal of the data is a
// *TooManyItemsError.
func (a *Stored) Rank(ctx context.Context, method string, items []int32, vals []float32, k int, excludeSeen bool) ([]Scored, error) {
	switch method {
	case MethodEASE:
		e, err := a.EASE(ctx)
		if err != nil {
			return nil, err
		}
		return e.Recommend(items, vals, k, excludeSeen), nil
	case MethodPopularity:
		return a.Popular(items, k, excludeSeen), nil
	}
	return a.Model.Recommend(items, vals, k, excludeSeen), nil
}
