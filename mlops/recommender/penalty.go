package recommender

import "math"

// itemCounts returns the users training learns from and, by item, how
// many of them have it in their training row: the users with a rating and
// their ratings, or, for the ranking objective, the users with an
// interaction and their interactions.
func itemCounts(cfg Config, train Ratings, sc scale) (counts, users []int) {
	counts = make([]int, train.Items)
	cut := sc.in(cfg.Relevant)
	for u := range train.Users {
		items, vals := train.Row(u)
		n := 0
		for i, j := range items {
			if !cfg.ranking() || sc.in(float64(vals[i])) >= cut {
				counts[j]++
				n++
			}
		}
		if n > 0 {
			users = append(users, u)
		}
	}
	return counts, users
}

// rowPenalties returns, by item, the weight of the penalty on its table
// rows in a batch that uses them: l2/p, p the chance that a batch of size
// of the users users includes one of the counts[j] who have item j in
// their rows, or, where sampled is not nil, that it does or draws the
// item as a negative (with chance sampled[j]). So each row's expected
// penalty per step is l2 times its weights, as if the penalty covered
// every row at every step, while only the rows a batch uses are touched.
// (Weighting by l2 alone would penalise a row once per batch that uses
// it: an item rated once, once an epoch, and a popular one every step,
// leaving the items with the least evidence the least held back.)
func rowPenalties(counts []int, users, size int, l2 float64, sampled []float64) []float64 {
	size = min(size, users)
	out := make([]float64, len(counts))
	for j, c := range counts {
		miss := math.Inf(-1) // log P(no rater): C(users−c, size) / C(users, size)
		switch {
		case c == 0:
			miss = 0
		case users-c >= size:
			miss = lchoose(users-c, size) - lchoose(users, size)
		}
		if sampled != nil {
			miss += math.Log1p(-sampled[j])
		}
		if miss < 0 {
			out[j] = l2 / -math.Expm1(miss)
		}
	}
	return out
}

// lchoose is log C(n, k) for 0 ≤ k ≤ n.
func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
