package recommender

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The strong-generalisation protocol of Liang et al. ("Variational
// Autoencoders for Collaborative Filtering", WWW 2018) holds out whole
// users: a model is trained without them, and each one's ratings are then
// split into a fold-in part, the model's input, and a scored part, whose
// relevant items it must rank. Mallard takes the held-out users from the
// ratings it has already split per rating (Split) for training, so that
// the two protocols share one stored data set:
//
//   - HeldOutUsers chooses them, a seeded share of the users with at least
//     MinHeldOutRatings ratings;
//   - WithoutUsers empties their rows, which is what a run holding them out
//     trains on (and what EASE and the baselines are fitted to under the
//     protocol);
//   - each one's ratings, training and test alike, are split at random into
//     FoldInShare of them as the input and the rest as scored (foldIn).
//
// None of a held-out user's ratings is then trained on, so the scored part
// is as unseen as a new user's next ratings.
const (
	// MinHeldOutRatings is the fewest ratings a held-out user has, so that
	// both parts have some: 4 fold in and 1 is scored.
	MinHeldOutRatings = 5
	// FoldInShare is the share of a held-out user's ratings that fold in.
	FoldInShare = 0.8
	// DefaultHoldOut is the share of the eligible users the protocol holds
	// out, as Liang et al. hold out 10 % of ML-20M's users for testing.
	DefaultHoldOut = 0.1
)

// HeldOutUsers returns, in increasing order, round(fraction·n) of the n
// users with at least MinHeldOutRatings ratings in train and test
// together, chosen at random by seed (the same seed and ratings give the
// same users). train and test are the two sides of a Split.
func HeldOutUsers(train, test Ratings, fraction float64, seed uint64) []int {
	var eligible []int
	for u := range train.Users {
		if train.Ptr[u+1]-train.Ptr[u]+test.Ptr[u+1]-test.Ptr[u] >= MinHeldOutRatings {
			eligible = append(eligible, u)
		}
	}
	want := int(math.Round(min(max(fraction, 0), 1) * float64(len(eligible))))
	rng := rand.New(rand.NewPCG(seed, 0x4E1D))
	rng.Shuffle(len(eligible), func(i, j int) { eligible[i], eligible[j] = eligible[j], eligible[i] })
	held := eligible[:want]
	slices.Sort(held)
	return held
}

// WithoutUsers returns r with the rows of users (increasing) emptied; it
// keeps r's users, items and ids.
func WithoutUsers(r Ratings, users []int) Ratings {
	out := r.emptyLike(r.Len())
	for u := range r.Users {
		if _, held := slices.BinarySearch(users, u); !held {
			items, vals := r.Row(u)
			out.Item, out.Value = append(out.Item, items...), append(out.Value, vals...)
		}
		out.Ptr[u+1] = len(out.Item)
	}
	return out
}

// foldIn splits each of users' ratings in train and test together, at
// random by seed, into input, round(FoldInShare·n) of a user's n ratings
// but at least one and not all of them, and scored, the rest. The other
// users have no ratings in either.
func foldIn(train, test Ratings, users []int, seed uint64) (input, scored Ratings) {
	input, scored = train.emptyLike(0), train.emptyLike(0)
	rng := rand.New(rand.NewPCG(seed, 0xF01D))
	next := 0
	for u := range train.Users {
		if next < len(users) && users[next] == u {
			next++
			items, vals := Known(train, test, u)
			want := min(max(int(math.Round(FoldInShare*float64(len(items)))), 1), len(items)-1)
			for i := range items {
				dst := &scored
				if rng.IntN(len(items)-i) < want { // selection sampling, as Split does
					dst, want = &input, want-1
				}
				dst.Item, dst.Value = append(dst.Item, items[i]), append(dst.Value, vals[i])
			}
		}
		input.Ptr[u+1], scored.Ptr[u+1] = len(input.Item), len(scored.Item)
	}
	return input, scored
}
