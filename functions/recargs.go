//go:build duckdb_arrow

package functions

import "github.com/mallard/mallard/mlops/recommender"

// The arguments of the functions that serve a recommender version.

// recommendArgs are recommend's arguments.
type recommendArgs struct {
	modelVersion
	UserID      any
	K           int
	ExcludeSeen bool
	Items       string // "" when not given
	Fallback    string
	Method      string
}

func (o *recommendArgs) params() []param {
	return []param{modelArg(&o.Model),
		idArg(&o.UserID, "user_id", "the user to recommend for, as the training data spells the id").req(),
		kArg(&o.K), excludeSeenArg(&o.ExcludeSeen), itemsArg(&o.Items),
		textArg(&o.Fallback, "fallback", "for a user the model never saw: 'error', or 'popular' (the most rated items)").
			oneOf("error", "popular").or("error"),
		versionArg(&o.Version), recMethodArg(&o.Method)}
}

// kArg declares how many items a function that ranks them returns.
func kArg(f *int) param { return intArg(f, "k", 1, maxK, "how many items to return").or(10) }

// excludeSeenArg declares whether the items a user has rated are left out.
func excludeSeenArg(f *bool) param {
	return boolArg(f, "exclude_seen", "leave out the items the user has already rated").or(true)
}

// itemsArg declares the table whose columns are joined to the items returned.
func itemsArg(f *string) param {
	return textArg(f, "items", "a table or query of the items, keyed by the item column, whose columns are added")
}

// recMethodArg declares the method that scores the items.
func recMethodArg(f *string) param {
	return textArg(f, "method", "what scores the items: the model or a baseline").oneOf(recommender.Methods()...).or(recommender.MethodModel)
}

// recommendForArgs are recommend_for's arguments.
type recommendForArgs struct {
	modelVersion
	History     []any
	K           int
	ExcludeSeen bool
	Items       string // "" when not given
	Method      string
}

func (o *recommendForArgs) params() []param {
	return []param{modelArg(&o.Model),
		idsArg(&o.History, "history", "the items the new user has interacted with, as the training data spells their ids").req(),
		kArg(&o.K), excludeSeenArg(&o.ExcludeSeen), itemsArg(&o.Items), recMethodArg(&o.Method), versionArg(&o.Version)}
}

// similarArgs are similar_items' arguments.
type similarArgs struct {
	modelVersion
	Item  any
	K     int
	Items string // "" when not given
}

func (o *similarArgs) params() []param {
	return []param{modelArg(&o.Model), idArg(&o.Item, "item", "the item whose neighbours to find").pos().req(),
		kArg(&o.K), itemsArg(&o.Items), versionArg(&o.Version)}
}
