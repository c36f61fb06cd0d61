package recommender

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Ratings are ratings in compressed sparse rows by user: user u rated the
// items Item[Ptr[u]:Ptr[u+1]], in increasing order, with the ratings
// Value[Ptr[u]:Ptr[u+1]] in the data's own scale. Users and items are dense
// indices below Users and Items; UserIDs and ItemIDs, when not nil, give
// the ids they stand for. A users x items array is never formed: the
// storage is one int32 and one float32 per rating.
type Ratings struct {
	Users, Items int
	Ptr          []int
	Item         []int32
	Value        []float32
	UserIDs      *IDs
	ItemIDs      *IDs
}

// Len is the number of ratings.
func (r Ratings) Len() int { return len(r.Item) }

// Row returns user u's items and ratings; the caller must not modify them.
func (r Ratings) Row(u int) ([]int32, []float32) {
	return r.Item[r.Ptr[u]:r.Ptr[u+1]], r.Value[r.Ptr[u]:r.Ptr[u+1]]
}

// Validate reports the first way r breaks the layout Ratings documents,
// or a rating that is not finite.
func (r Ratings) Validate() error {
	switch {
	case r.Users < 0 || r.Items < 0:
		return fmt.Errorf("ratings of %d users and %d items", r.Users, r.Items)
	case len(r.Ptr) != r.Users+1 || r.Ptr[0] != 0 || r.Ptr[r.Users] != len(r.Item):
		return fmt.Errorf("ratings: row pointers do not span %d ratings of %d users", len(r.Item), r.Users)
	case len(r.Value) != len(r.Item):
		return fmt.Errorf("ratings: %d items but %d values", len(r.Item), len(r.Value))
	case r.UserIDs != nil && r.UserIDs.Len() != r.Users, r.ItemIDs != nil && r.ItemIDs.Len() != r.Items:
		return fmt.Errorf("ratings: the ids do not number %d users and %d items", r.Users, r.Items)
	}
	for u := range r.Users {
		if r.Ptr[u+1] < r.Ptr[u] {
			return fmt.Errorf("ratings: row pointers of user %d decrease", u)
		}
		items, vals := r.Row(u)
		for i, j := range items {
			if j < 0 || int(j) >= r.Items || i > 0 && j <= items[i-1] {
				return fmt.Errorf("ratings: user %d: items are not increasing indices below %d", u, r.Items)
			}
			if v := float64(vals[i]); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("ratings: user %d, item %d: rating %v", u, j, v)
			}
		}
	}
	return nil
}

// scale is the least and the greatest rating; both are 0 without ratings.
func (r Ratings) scale() (lo, hi float64) {
	if len(r.Value) == 0 {
		return 0, 0
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range r.Value {
		lo, hi = min(lo, float64(v)), max(hi, float64(v))
	}
	return lo, hi
}

// Split divides the ratings at random into a training and a test set, the
// test set holding round(testFraction·r.Len()) of them. The choice depends
// only on seed and r, so a split can be repeated. Both sets keep r's users,
// items and ids; a user may end with ratings in only one of them.
func Split(r Ratings, testFraction float64, seed uint64) (train, test Ratings) {
	n := r.Len()
	want := int(math.Round(min(max(testFraction, 0), 1) * float64(n)))
	train, test = r.emptyLike(n-want), r.emptyLike(want)
	rng := rand.New(rand.NewPCG(seed, 0x5EED))
	// Selection sampling (Knuth's Algorithm S): rating i goes to the test
	// set with probability (test ratings still wanted)/(ratings left), which
	// picks exactly want of them, every subset alike, in one pass.
	for u := range r.Users {
		for i := r.Ptr[u]; i < r.Ptr[u+1]; i++ {
			dst := &train
			if rng.IntN(n-i) < want {
				dst, want = &test, want-1
			}
			dst.Item = append(dst.Item, r.Item[i])
			dst.Value = append(dst.Value, r.Value[i])
		}
		train.Ptr[u+1], test.Ptr[u+1] = len(train.Item), len(test.Item)
	}
	return train, test
}

// emptyLike returns ratings with r's users, items and ids and room for n.
func (r Ratings) emptyLike(n int) Ratings {
	return Ratings{Users: r.Users, Items: r.Items, Ptr: make([]int, r.Users+1),
		Item: make([]int32, 0, n), Value: make([]float32, 0, n), UserIDs: r.UserIDs, ItemIDs: r.ItemIDs}
}
