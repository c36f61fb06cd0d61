package recommender_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// triple is one rating as a query returns it.
type triple struct {
	user, item recommender.ID
	rating     float64
}

func build(policy recommender.Duplicates, ts []triple) (recommender.Ratings, int, error) {
	b := recommender.NewBuilder(policy)
	for _, t := range ts {
		if err := b.Add(t.user, t.item, t.rating); err != nil {
			return recommender.Ratings{}, b.Merged(), err
		}
	}
	r, err := b.Finish()
	return r, b.Merged(), err
}

func TestBuilder(t *testing.T) {
	i, s := recommender.Int, recommender.Text
	tests := []struct {
		name       string
		policy     recommender.Duplicates
		input      []triple
		wantPtr    []int
		wantItem   []int32
		wantValue  []float32
		wantMerged int
		wantErr    error
	}{
		{"numbered in id order, rows sorted by item", recommender.DuplicatesError,
			[]triple{{i(7), s("b"), 4}, {i(7), s("a"), 3}, {i(2), s("a"), 5}},
			[]int{0, 1, 3}, []int32{0, 0, 1}, []float32{5, 3, 4}, 0, nil},
		{"average", recommender.DuplicatesAverage,
			[]triple{{i(1), i(10), 4}, {i(1), i(11), 1}, {i(1), i(10), 3}, {i(1), i(10), 2}, {i(2), i(11), 5}, {i(2), i(11), 4}},
			[]int{0, 2, 3}, []int32{0, 1, 1}, []float32{3, 1, 4.5}, 3, nil},
		{"duplicate is an error", recommender.DuplicatesError,
			[]triple{{i(1), i(10), 4}, {i(1), i(11), 1}, {i(1), i(10), 3}, {i(2), i(11), 5}},
			nil, nil, nil, 0, recommender.ErrDuplicate},
		{"duplicate of the last user", recommender.DuplicatesError,
			[]triple{{i(1), i(10), 4}, {i(2), i(11), 1}, {i(2), i(11), 1}},
			nil, nil, nil, 0, recommender.ErrDuplicate},
		{"users in any order", recommender.DuplicatesAverage,
			[]triple{{i(1), i(12), 4}, {i(2), i(11), 1}, {i(1), i(10), 3}, {i(-5), i(12), 2}},
			[]int{0, 1, 3, 4}, []int32{2, 0, 2, 1}, []float32{2, 3, 4, 1}, 0, nil},
		{"negative ratings average", recommender.DuplicatesAverage,
			[]triple{{i(1), i(1), -1.5}, {i(1), i(1), 0.5}, {i(1), i(1), -2}},
			[]int{0, 1}, []int32{0}, []float32{-1}, 2, nil},
		{"empty", recommender.DuplicatesError, nil, []int{0}, []int32{}, []float32{}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, merged, err := build(tt.policy, tt.input)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Ptr, tt.wantPtr) || !reflect.DeepEqual(r.Item, tt.wantItem) ||
				!reflect.DeepEqual(r.Value, tt.wantValue) || merged != tt.wantMerged {
				t.Errorf("got ptr %v items %v values %v merged %d, want %v %v %v %d",
					r.Ptr, r.Item, r.Value, merged, tt.wantPtr, tt.wantItem, tt.wantValue, tt.wantMerged)
			}
		})
	}
}

func TestDuplicateErrorNamesThePair(t *testing.T) {
	_, _, err := build(recommender.DuplicatesError, []triple{
		{recommender.Text("ann"), recommender.Int(3), 1}, {recommender.Text("ann"), recommender.Int(3), 2}})
	var dup *recommender.DuplicateError
	if !errors.As(err, &dup) || dup.User != recommender.Text("ann") || dup.Item != recommender.Int(3) {
		t.Fatalf("error %v, want a DuplicateError of user ann and item 3", err)
	}
}

func TestBuilderRefusesNonFinite(t *testing.T) {
	b := recommender.NewBuilder(recommender.DuplicatesError)
	if err := b.Add(recommender.Int(1), recommender.Int(1), math.NaN()); err == nil {
		t.Fatal("a NaN rating was accepted")
	}
}

func TestIDsRoundTrip(t *testing.T) {
	var ids recommender.IDs
	for _, id := range []recommender.ID{recommender.Int(-4), recommender.Text("4"), recommender.Int(1 << 60), recommender.Text("")} {
		ids.Add(id)
	}
	data, err := json.Marshal(&ids)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `[-4,"4",1152921504606846976,""]` {
		t.Errorf("marshalled %s", data)
	}
	var back recommender.IDs
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	for k := range ids.Len() {
		if j, ok := back.Index(ids.At(k)); !ok || j != k {
			t.Errorf("id %v has index %d, %v after the round trip, want %d", ids.At(k), j, ok, k)
		}
	}
	if err := json.Unmarshal([]byte(`[1,2,1]`), &back); err == nil {
		t.Error("repeated ids were accepted")
	}
}

func TestSplit(t *testing.T) {
	all := movielens(t)
	train, test := recommender.Split(all, 0.1, 42)
	if err := errors.Join(train.Validate(), test.Validate()); err != nil {
		t.Fatal(err)
	}
	if want := int(math.Round(0.1 * float64(all.Len()))); test.Len() != want || train.Len() != all.Len()-want {
		t.Errorf("split %d + %d ratings, want %d test of %d", train.Len(), test.Len(), want, all.Len())
	}
	// Every rating lands in exactly one part, unchanged.
	for u := range all.Users {
		items, vals := all.Row(u)
		a, av := train.Row(u)
		b, bv := test.Row(u)
		if len(a)+len(b) != len(items) {
			t.Fatalf("user %d: %d + %d ratings of %d", u, len(a), len(b), len(items))
		}
		for k, j := range items {
			if len(a) > 0 && a[0] == j && av[0] == vals[k] {
				a, av = a[1:], av[1:]
			} else if len(b) > 0 && b[0] == j && bv[0] == vals[k] {
				b, bv = b[1:], bv[1:]
			} else {
				t.Fatalf("user %d: rating of item %d lost", u, j)
			}
		}
	}
	again, _ := recommender.Split(all, 0.1, 42)
	if !reflect.DeepEqual(again.Item, train.Item) || !reflect.DeepEqual(again.Ptr, train.Ptr) {
		t.Error("the same seed gave another split")
	}
	other, _ := recommender.Split(all, 0.1, 43)
	if reflect.DeepEqual(other.Item, train.Item) {
		t.Error("another seed gave the same split")
	}
}

// TestBuilderOrderFree checks that the ratings do not depend on the order
// the triples arrive in.
func TestBuilderOrderFree(t *testing.T) {
	var ts []triple
	for k := range 200 {
		ts = append(ts, triple{recommender.Text(string(rune('a' + k%13))), recommender.Int(int64(k * 7 % 31)), float64(k%9) / 2})
	}
	want, _, err := build(recommender.DuplicatesAverage, ts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		got, _, err := build(recommender.DuplicatesAverage, ts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Ptr, want.Ptr) || !reflect.DeepEqual(got.Item, want.Item) || !reflect.DeepEqual(got.Value, want.Value) ||
			got.UserIDs.At(3) != want.UserIDs.At(3) || got.ItemIDs.At(5) != want.ItemIDs.At(5) {
			t.Fatal("shuffled triples give other ratings")
		}
	}
}
