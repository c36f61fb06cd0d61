package recommender_test

import (
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// TestHeldOutUsers: the held-out users are a seeded share of those with
// enough ratings; their rows are emptied for training, and their fold-in
// and scored parts partition their ratings, training and test alike, with
// the fold-in part FoldInShare of them.
func TestHeldOutUsers(t *testing.T) {
	// User u rated items 0..2u-1; users 0 to 2 have fewer than five.
	all := recommender.Ratings{Users: 20, Items: 40, Ptr: []int{0}}
	for u := range 20 {
		for j := range 2 * u {
			all.Item, all.Value = append(all.Item, int32(j)), append(all.Value, float32(1+j%5))
		}
		all.Ptr = append(all.Ptr, len(all.Item))
	}
	train, test := recommender.Split(all, 0.2, 3)
	held := recommender.HeldOutUsers(train, test, 0.25, 7)
	if len(held) != 4 || !slices.IsSorted(held) || held[0] < 3 {
		t.Fatalf("held out %v, want 4 of the 17 users with five ratings or more, in order", held)
	}
	if again := recommender.HeldOutUsers(train, test, 0.25, 7); !slices.Equal(again, held) {
		t.Errorf("the same seed held out %v, then %v", held, again)
	}
	if other := recommender.HeldOutUsers(train, test, 0.25, 8); slices.Equal(other, held) {
		t.Errorf("seeds 7 and 8 hold out the same users %v", held)
	}
	rest := recommender.WithoutUsers(train, held)
	if err := rest.Validate(); err != nil {
		t.Fatal(err)
	}
	input, scored := recommender.FoldIn(train, test, held, 7)
	for u := range all.Users {
		trained, _ := rest.Row(u)
		in, _ := input.Row(u)
		sc, _ := scored.Row(u)
		whole, _ := recommender.Known(train, test, u)
		if !slices.Contains(held, u) {
			if own, _ := train.Row(u); !slices.Equal(trained, own) || len(in)+len(sc) != 0 {
				t.Errorf("user %d is not held out but trains on %v of %v and folds in %v", u, trained, own, in)
			}
			continue
		}
		merged := slices.Sorted(slices.Values(append(slices.Clone(in), sc...)))
		if len(trained) != 0 || !slices.Equal(merged, whole) || len(in) != int(0.8*float64(len(whole))+0.5) {
			t.Errorf("held-out user %d: trains on %v, folds in %v and scores %v of %v", u, trained, in, sc, whole)
		}
	}
}
