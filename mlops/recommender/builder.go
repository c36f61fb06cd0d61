package recommender

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Errors of a Builder; test with errors.Is.
var (
	// ErrDuplicate reports a user who rated an item twice under
	// DuplicatesError; the error is a *DuplicateError naming them.
	ErrDuplicate = errors.New("duplicate rating")
	// ErrUnsorted reports ratings of one user that do not arrive together.
	ErrUnsorted = errors.New("ratings are not grouped by user")
)

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
// grouped by user, as from a query ordered by user: only the open user's
// ratings are held apart from the result, so memory is the result's plus
// one row. Users and items are numbered in order of first appearance. A
// duplicate is found when its user's row closes, that is at the next
// user's first Add or at Finish.
type Builder struct {
	policy       Duplicates
	users, items IDs
	out          Ratings
	row          []entry // the open user's ratings, in arrival order
	merged       int
}

// entry is one rating of the open row.
type entry struct {
	item   int32
	rating float64
}

// NewBuilder returns an empty Builder that treats duplicates by policy.
func NewBuilder(policy Duplicates) *Builder {
	return &Builder{policy: policy, out: Ratings{Ptr: []int{0}}}
}

// Add records that user rated item with rating, which must be finite.
func (b *Builder) Add(user, item ID, rating float64) error {
	if math.IsNaN(rating) || math.IsInf(rating, 0) {
		return fmt.Errorf("user %v, item %v: rating %v is not finite", user, item, rating)
	}
	if u, ok := b.users.Index(user); !ok {
		if err := b.closeRow(); err != nil {
			return err
		}
		b.users.Add(user)
	} else if u != b.users.Len()-1 {
		return fmt.Errorf("user %v: %w; order them by user", user, ErrUnsorted)
	}
	if b.items.Len() == math.MaxInt32 {
		return fmt.Errorf("more than %d items", math.MaxInt32)
	}
	b.row = append(b.row, entry{item: int32(b.items.Add(item)), rating: rating})
	return nil
}

// Merged is the number of duplicate ratings DuplicatesAverage has folded
// into others so far.
func (b *Builder) Merged() int { return b.merged }

// Finish returns the ratings added. The Builder must not be used after.
func (b *Builder) Finish() (Ratings, error) {
	if err := b.closeRow(); err != nil {
		return Ratings{}, err
	}
	b.out.Users, b.out.Items = b.users.Len(), b.items.Len()
	b.out.UserIDs, b.out.ItemIDs = &b.users, &b.items
	return b.out, nil
}

// closeRow appends the open row to the result in item order, treating
// duplicates by the policy; the mean of duplicates sums them in arrival
// order, so it does not depend on how the row was sorted.
func (b *Builder) closeRow() error {
	if b.users.Len() == 0 {
		return nil
	}
	slices.SortStableFunc(b.row, func(x, y entry) int { return cmp.Compare(x.item, y.item) })
	for i := 0; i < len(b.row); {
		k, sum := i+1, b.row[i].rating
		for ; k < len(b.row) && b.row[k].item == b.row[i].item; k++ {
			sum += b.row[k].rating
		}
		if k-i > 1 && b.policy == DuplicatesError {
			return &DuplicateError{User: b.users.At(b.users.Len() - 1), Item: b.items.At(int(b.row[i].item))}
		}
		b.merged += k - i - 1
		b.out.Item = append(b.out.Item, b.row[i].item)
		b.out.Value = append(b.out.Value, float32(sum/float64(k-i)))
		i = k
	}
	b.out.Ptr = append(b.out.Ptr, len(b.out.Item))
	b.row = b.row[:0]
	return nil
}
