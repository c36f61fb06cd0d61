package recommender_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// versionOf is storedOf as the serving functions see it.
func versionOf(t *testing.T) *recommender.Version {
	return &recommender.Version{Stored: storedOf(t), Ref: mlops.Ref{Name: "m", Version: 2}}
}

// code is err's SQLSTATE, or "" when it has none.
func code(err error) string {
	var e *sqlstate.Error
	if errors.As(err, &e) {
		return string(e.Code)
	}
	return ""
}

// History keeps the known items of a new user's history once each, in
// index order, and refuses an empty history or an unknown item with 22023.
func TestVersionHistory(t *testing.T) {
	s := versionOf(t) // items 10 to 12
	items, err := s.History("recommend_for", []any{int64(12), int64(10), int64(12)})
	if err != nil {
		t.Fatal(err)
	}
	i10, _ := s.Item(int64(10))
	i12, _ := s.Item(int64(12))
	if want := []int32{int32(min(i10, i12)), int32(max(i10, i12))}; !slices.Equal(items, want) {
		t.Errorf("History(12, 10, 12) = %v; want %v", items, want)
	}
	for _, ids := range [][]any{nil, {int64(10), int64(99)}} {
		if _, err := s.History("recommend_for", ids); code(err) != string(sqlstate.InvalidParameterValue) {
			t.Errorf("History(%v): %v; want 22023", ids, err)
		}
	}
}

// A user the model does not know is an error unless the fallback is the
// popular items, which Recommend then returns.
func TestVersionRecommendUnknownUser(t *testing.T) {
	s := versionOf(t) // users "a" to "d"
	if err := s.CheckUser("recommend", "z", "error"); code(err) != string(sqlstate.InvalidParameterValue) {
		t.Errorf("CheckUser of an unknown user: %v; want 22023", err)
	}
	if err := s.CheckUser("recommend", "a", "error"); err != nil {
		t.Errorf("CheckUser of a known user: %v", err)
	}
	recs, err := s.Recommend(context.Background(), "recommend", "z", 2, true, "popular", recommender.MethodModel)
	if want := s.Popular(nil, 2, false); err != nil || !slices.Equal(recs, want) {
		t.Errorf("Recommend to an unknown user with fallback popular: %v, %v; want %v", recs, err, want)
	}
	if _, err := s.ItemIndex("similar_items", int64(99)); code(err) != string(sqlstate.InvalidParameterValue) {
		t.Errorf("ItemIndex of an unknown item: %v; want 22023", err)
	}
}
