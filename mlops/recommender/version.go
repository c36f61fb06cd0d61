package recommender

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/sqlstate"
)

// Version is a stored recommender version as the functions that serve it
// use it: its model and data, which version it is, and the metrics the
// registry recorded of it ("" where it did not finish training). Its
// errors are those of the SQL function fn that asked, with a SQLSTATE.
type Version struct {
	*Stored
	Ref     mlops.Ref
	Metrics string
}

// CheckUser fails unless the model knows user v or fallback is "popular".
func (s *Version) CheckUser(fn string, v any, fallback string) error {
	if _, ok := s.User(v); ok || fallback == "popular" {
		return nil
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: user_id := %v is not a user %s was trained on", fn, describeID(v), s.Ref).
		WithDetail("It knows %d users.", s.Model.UserIDs.Len()).
		WithHint("fallback := 'popular' recommends the most popular items to users it does not know.")
}

// Recommend returns user v's k best items by method; a user the model
// does not know gets the most popular items when fallback is "popular",
// else an error.
func (s *Version) Recommend(ctx context.Context, fn string, v any, k int, excludeSeen bool, fallback, method string) ([]Scored, error) {
	u, ok := s.User(v)
	if !ok {
		if err := s.CheckUser(fn, v, fallback); err != nil {
			return nil, err
		}
		return s.Popular(nil, k, false), nil
	}
	items, vals := Known(s.Train, s.Test, u)
	return s.RankBy(ctx, fn, method, items, vals, k, excludeSeen)
}

// RankBy returns the k best items by method (see Stored.Rank), EASE's
// refusal of the data worded as fn's error.
func (s *Version) RankBy(ctx context.Context, fn, method string, items []int32, vals []float32, k int, excludeSeen bool) ([]Scored, error) {
	recs, err := s.Rank(ctx, method, items, vals, k, excludeSeen)
	if err != nil {
		return nil, easeRefusal(fn, err)
	}
	return recs, nil
}

// easeRefusal is the SQL error of asking fn for EASE where it refuses the
// data, or err itself.
func easeRefusal(fn string, err error) error {
	var tooMany *TooManyItemsError
	if !errors.As(err, &tooMany) {
		return err
	}
	return sqlstate.New(sqlstate.ProgramLimitExceeded, "%s: method := 'ease' fits at most %d items, and %d items have at least %d ratings of at least relevant",
		fn, tooMany.Limit, tooMany.Items, tooMany.MinCount).
		WithDetail("EASE inverts an items x items matrix, whose size and cost grow as the square and the cube of the items.").
		WithHint("Use method := 'model' or method := 'popularity'.")
}

// maxUnknownShown is the most unknown ids an error lists.
const maxUnknownShown = 10

// History returns the item indices of the ids of a new user's history,
// increasing and each once, or a 22023 error of fn if there are none or
// some are not items of the model.
func (s *Version) History(fn string, ids []any) ([]int32, error) {
	if len(ids) == 0 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: history := [] is empty; give the ids of the items the user interacted with",
			fn).WithHint("Without a history, recommend('%s', user_id := ..., fallback := 'popular') gives a user the model does not know the most popular items.", s.Ref)
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
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: history has %d ids that are not items %s was trained on: %s",
			fn, len(unknown), s.Ref, strings.Join(shown, ", ")).WithDetail("It knows %d items.", s.Model.ItemIDs.Len())
	}
	slices.Sort(items)
	return slices.Compact(items), nil
}

// ItemIndex returns the index of item v, or a 22023 error of fn if v is
// not an item of the model.
func (s *Version) ItemIndex(fn string, v any) (int, error) {
	j, ok := s.Item(v)
	if !ok {
		return 0, sqlstate.New(sqlstate.InvalidParameterValue, "%s: item %s is not an item %s was trained on",
			fn, describeID(v), s.Ref).WithDetail("It knows %d items.", s.Model.ItemIDs.Len())
	}
	return j, nil
}

// Evaluation returns the rows of protocol (see Stored.Evaluate) and
// tells notice what explains the rows left NULL.
func (s *Version) Evaluation(ctx context.Context, protocol string, notice func(string)) ([]Metrics, error) {
	ev, err := s.Evaluate(ctx, protocol)
	if err != nil {
		return nil, err
	}
	if ev.EveryUserTrained {
		notice(fmt.Sprintf("evaluate %s: it was trained on every user, so protocol := 'users' cannot measure it; "+
			"the baselines and ease are measured on %.0f %% of the users, left out of their fit", s.Ref, 100*DefaultHoldOut))
	}
	if tooMany := ev.EASESkipped; tooMany != nil {
		notice(fmt.Sprintf("evaluate %s: ease skipped: %d items have at least %d relevant training ratings, and it fits at most %d",
			s.Ref, tooMany.Items, tooMany.MinCount, tooMany.Limit))
	}
	return ev.Rows, nil
}

// describeID is an id as a message shows it: text quoted as a SQL
// literal, numbers as they are.
func describeID(v any) string {
	if s, ok := v.(string); ok {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return fmt.Sprint(v)
}
