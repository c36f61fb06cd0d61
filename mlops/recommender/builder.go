package recommender

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrDuplicate reports a user who rated an item twice under
// DuplicatesError; the error is a *DuplicateError naming them. Test with
// errors.Is.
var ErrDuplicate = errors.New("duplicate rating")

// DuplicateError names the user and the item of a duplicate rating.
type DuplicateError struct {
	User, Item ID
}

// Error names the user and the item.
func (e *DuplicateError) Error() string {
	return fmt.Sprintf("user %v rated item %v more than once", e.User, e.Item)
}

// Unwrap returns ErrDuplicate.
func (e *DuplicateError) Unwrap() error { return ErrDuplicate }

// Duplicates is what a Builder does when a user rates an item more than once.
type Duplicates int

const (
	// DuplicatesError fails with a *DuplicateError.
	DuplicatesError Duplicates = iota
	// DuplicatesAverage keeps one rating, the mean of the user's ratings of the item.
	DuplicatesAverage
)

// String returns the policy's name as ParseDuplicates accepts it.
func (d Duplicates) String() string {
	if d == DuplicatesAverage {
		return "avg"
	}
	return "error"
}

// ParseDuplicates returns the policy named s: "error" or "avg".
func ParseDuplicates(s string) (Duplicates, bool) {
	switch s {
	case "error":
		return DuplicatesError, true
	case "avg":
		return DuplicatesAverage, true
	}
	return DuplicatesError, false
}

// Builder assembles Ratings from (user, item, rating) triples that arrive
// in any order, as from a query without ORDER BY (whose sort would hold a
// second copy of the ratings in the database). It keeps each triple in
// twelve bytes until Finish moves them into rows. Users and items are
// numbered in the order of their ids (integers before texts), so the
// result does not depend on the order the triples arrive in.
type Builder struct {
	policy       Duplicates
	users, items arrivals
	u, i         []int32 // arrival numbers, one per triple
	v            []float32
	merged       int
}

// arrivals numbers ids in the order they first arrive.
type arrivals struct {
	index map[ID]int32
	list  []ID
}

// number returns id's arrival number, numbering it next if it is new;
// what names the ids in the error when there are too many.
func (a *arrivals) number(id ID, what string) (int32, error) {
	if n, ok := a.index[id]; ok {
		return n, nil
	}
	if len(a.list) == math.MaxInt32 {
		return 0, fmt.Errorf("more than %d %s", math.MaxInt32, what)
	}
	if a.index == nil {
		a.index = map[ID]int32{}
	}
	n := int32(len(a.list))
	a.index[id], a.list = n, append(a.list, id)
	return n, nil
}

// NewBuilder returns an empty Builder that treats duplicates by policy.
func NewBuilder(policy Duplicates) *Builder {
	return &Builder{policy: policy}
}

// Grow makes room for n more triples, to add without reallocating.
func (b *Builder) Grow(n int) {
	b.u, b.i, b.v = slices.Grow(b.u, n), slices.Grow(b.i, n), slices.Grow(b.v, n)
}

// Add records that user rated item with rating, which must be finite.
func (b *Builder) Add(user, item ID, rating float64) error {
	if math.IsNaN(rating) || math.IsInf(rating, 0) {
		return fmt.Errorf("user %v, item %v: rating %v is not finite", user, item, rating)
	}
	u, err := b.users.number(user, "users")
	if err != nil {
		return err
	}
	j, err := b.items.number(item, "items")
	if err != nil {
		return err
	}
	b.u, b.i, b.v = append(b.u, u), append(b.i, j), append(b.v, float32(rating))
	return nil
}

// Merged is the number of duplicate ratings DuplicatesAverage folded into
// others; it is known after Finish.
func (b *Builder) Merged() int { return b.merged }

// Finish returns the ratings added, each row in item order. Duplicates are
// treated by the policy; the mean of duplicates sums them in increasing
// order, so it does not depend on their arrival either. The Builder must
// not be used after.
func (b *Builder) Finish() (Ratings, error) {
	users, userRank := numbered(b.users.list)
	items, itemRank := numbered(b.items.list)
	b.users, b.items = arrivals{}, arrivals{}
	out := Ratings{Users: users.Len(), Items: items.Len(), Ptr: make([]int, users.Len()+1), UserIDs: users, ItemIDs: items}
	for _, u := range b.u {
		out.Ptr[userRank[u]+1]++
	}
	for k := range out.Users {
		out.Ptr[k+1] += out.Ptr[k]
	}
	// Counting sort into rows; then the triples go.
	out.Item, out.Value = make([]int32, len(b.u)), make([]float32, len(b.u))
	next := slices.Clone(out.Ptr[:out.Users])
	for k, u := range b.u {
		r := userRank[u]
		out.Item[next[r]], out.Value[next[r]] = itemRank[b.i[k]], b.v[k]
		next[r]++
	}
	b.u, b.i, b.v = nil, nil, nil
	if err := b.mergeRows(&out); err != nil {
		return Ratings{}, err
	}
	return out, nil
}

// mergeRows sorts each row by item and folds duplicates by the policy,
// compacting the rows in place.
func (b *Builder) mergeRows(r *Ratings) error {
	var keys []uint64
	w := 0
	for u := range r.Users {
		from, to := r.Ptr[u], r.Ptr[u+1]
		keys = keys[:0]
		for k := from; k < to; k++ {
			keys = append(keys, uint64(r.Item[k])<<32|uint64(orderedBits(r.Value[k])))
		}
		slices.Sort(keys)
		r.Ptr[u] = w
		for k := 0; k < len(keys); {
			item := int32(keys[k] >> 32)
			n, sum := 1, float64(fromOrderedBits(uint32(keys[k])))
			for ; k+n < len(keys) && int32(keys[k+n]>>32) == item; n++ {
				sum += float64(fromOrderedBits(uint32(keys[k+n])))
			}
			if n > 1 && b.policy == DuplicatesError {
				return &DuplicateError{User: r.UserIDs.At(u), Item: r.ItemIDs.At(int(item))}
			}
			b.merged += n - 1
			r.Item[w], r.Value[w] = item, float32(sum/float64(n))
			w++
			k += n
		}
	}
	r.Ptr[r.Users] = w
	r.Item, r.Value = slices.Clip(r.Item[:w]), slices.Clip(r.Value[:w])
	return nil
}

// orderedBits maps a float32 to a uint32 of the same order.
func orderedBits(f float32) uint32 {
	b := math.Float32bits(f)
	if b>>31 == 1 {
		return ^b
	}
	return b | 1<<31
}

func fromOrderedBits(b uint32) float32 {
	if b>>31 == 1 {
		return math.Float32frombits(b &^ (1 << 31))
	}
	return math.Float32frombits(^b)
}

// numbered returns the ids in increasing order as IDs, and for each id's
// arrival number its index there.
func numbered(list []ID) (*IDs, []int32) {
	order := make([]int32, len(list))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int { return compareIDs(list[a], list[b]) })
	ids := &IDs{}
	rank := make([]int32, len(list))
	for k, a := range order {
		ids.Add(list[a])
		rank[a] = int32(k)
	}
	return ids, rank
}

// compareIDs orders integers before texts, integers by value, texts bytewise.
func compareIDs(a, b ID) int {
	if a.IsText != b.IsText {
		if a.IsText {
			return 1
		}
		return -1
	}
	if a.IsText {
		return cmp.Compare(a.Text, b.Text)
	}
	return cmp.Compare(a.Int, b.Int)
}
