package recommender

import "math"

// Known returns user u's ratings in both a and b, ratings of the same
// users and items that share no (user, item) pair, merged in item order:
// a user's whole history when a and b are the two sides of a Split.
func Known(a, b Ratings, u int) ([]int32, []float32) {
	ai, av := a.Row(u)
	bi, bv := b.Row(u)
	items, vals := make([]int32, 0, len(ai)+len(bi)), make([]float32, 0, len(ai)+len(bi))
	for len(ai)+len(bi) > 0 {
		if len(bi) == 0 || len(ai) > 0 && ai[0] < bi[0] {
			items, vals, ai, av = append(items, ai[0]), append(vals, av[0]), ai[1:], av[1:]
		} else {
			items, vals, bi, bv = append(items, bi[0]), append(vals, bv[0]), bi[1:], bv[1:]
		}
	}
	return items, vals
}

// Popular is what to offer a user the model knows nothing about: for the
// ranking objective, PopularInteractions at Config.Relevant, each item
// scored as the model scores, by a probability; for the rating
// objective, Popular of rs, each scored by a predicted rating.
func (m *Model) Popular(rs ...Ratings) []Scored {
	if m.Config.ranking() {
		return PopularInteractions(m.Config.Relevant, rs...)
	}
	return Popular(rs...)
}

// PopularInteractions ranks every item by its number of interactions in
// rs, ratings of at least relevant (ties to the lower index), each scored
// by its share of all of them: the popularity that a ranking model's
// softmax would learn from users it knows nothing about. The ratings must
// share their items.
func PopularInteractions(relevant float64, rs ...Ratings) []Scored {
	if len(rs) == 0 {
		return nil
	}
	counts := make([]float64, rs[0].Items)
	var n float64
	for _, r := range rs {
		for i, j := range r.Item {
			if float64(r.Value[i]) >= relevant {
				counts[j]++
				n++
			}
		}
	}
	out := best(counts, len(counts))
	for i := range out {
		out[i].Score /= math.Max(n, 1)
	}
	return out
}

// Popular ranks every item by its number of ratings in rs (ties to the
// lower index), each scored by the ItemMean prediction: what to offer a
// user the rating model knows nothing about. The ratings must share their
// items.
func Popular(rs ...Ratings) []Scored {
	if len(rs) == 0 {
		return nil
	}
	items := rs[0].Items
	sums, counts := make([]float64, items), make([]float64, items)
	var total, n float64
	for _, r := range rs {
		for i, j := range r.Item {
			sums[j] += float64(r.Value[i])
			counts[j]++
			total += float64(r.Value[i])
			n++
		}
	}
	out := best(counts, items)
	global := total / math.Max(n, 1)
	for i, s := range out {
		out[i].Score = (sums[s.Item] + MeanPrior*global) / (counts[s.Item] + MeanPrior)
	}
	return out
}
