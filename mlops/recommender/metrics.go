package recommender

import (
	"math"
	"slices"
)

// The cut-offs of the ranking metrics besides TopK: Recall@20 and
// NDCG@100, as Liang et al. (2018) and Steck (2019) report them.
const (
	RecallCutoff = 20
	NDCGCutoff   = 100
)

// longest is the longest ranking any metric reads.
const longest = max(TopK, RecallCutoff, NDCGCutoff)

// rankScore is one user's ranking metrics.
type rankScore struct {
	recall10, ndcg10, recall20, ndcg100 float64
}

// userRank returns the metrics of a ranking top (best first, of at least
// longest items when there are that many candidates) for a user whose
// test ratings are testItems (increasing) and testVals. ok is false, and
// the metrics zero, when the user has no relevant item.
func userRank(top, testItems []int32, testVals []float32, relevant float64) (r rankScore, ok bool) {
	r.recall10, r.ndcg10, ok = atCutoff(top, testItems, testVals, relevant, TopK)
	r.recall20, _, _ = atCutoff(top, testItems, testVals, relevant, RecallCutoff)
	_, r.ndcg100, _ = atCutoff(top, testItems, testVals, relevant, NDCGCutoff)
	return r, ok
}

// atCutoff returns Recall@k and NDCG@k of a ranking top, best first, for
// a user whose test ratings are testItems (increasing) and testVals; the
// relevant items are those rated at least relevant. Recall@k is the
// relevant items among the first k over min(k, relevant items), as Liang
// et al. normalise it, so that a perfect ranking scores 1 whatever the
// number of relevant items; NDCG@k is DCG over the ideal DCG, with binary
// gains discounted by log2(1+rank). ok is false, and the metrics zero,
// when the user has no relevant item.
func atCutoff(top, testItems []int32, testVals []float32, relevant float64, k int) (recall, ndcg float64, ok bool) {
	n := 0
	for _, v := range testVals {
		if float64(v) >= relevant {
			n++
		}
	}
	if n == 0 {
		return 0, 0, false
	}
	hits, dcg, ideal := 0, 0.0, 0.0
	for i, j := range top[:min(k, len(top))] {
		if at, found := slices.BinarySearch(testItems, j); found && float64(testVals[at]) >= relevant {
			hits++
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range min(n, k) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	return float64(hits) / float64(min(n, k)), dcg / ideal, true
}

// withRanking returns m with the means of the users' ranking metrics.
func (m Metrics) withRanking(users []rankScore) Metrics {
	var s rankScore
	for _, u := range users {
		s.recall10 += u.recall10
		s.ndcg10 += u.ndcg10
		s.recall20 += u.recall20
		s.ndcg100 += u.ndcg100
	}
	n := float64(len(users))
	m.RecallAt10, m.NDCGAt10, m.RecallAt20, m.NDCGAt100 = s.recall10/n, s.ndcg10/n, s.recall20/n, s.ndcg100/n
	return m
}
