package recommender

import (
	"slices"

	"github.com/mallard/mallard/mlops/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// TopK is the cut-off of the ranking metrics, Recall@10 and NDCG@10.
const TopK = 10

// rankChunk is the number of users whose scores are computed in one
// matrix product while ranking.
const rankChunk = 32

// evaluator measures one network on training and test ratings; it is not
// safe for concurrent use, so each goroutine has its own.
type evaluator struct {
	net         *net
	train, test Ratings
	scale       scale
	relevant    float64
	t           *trace
	codes       []float64 // the last hidden layer of a chunk of users
	scores      []float64 // every item's output for a chunk of users
	top         []int32
}

func newEvaluator(n *net, train, test Ratings, s scale, relevant float64) *evaluator {
	return &evaluator{net: n, train: train, test: test, scale: s, relevant: relevant, t: newTrace(n.sizes)}
}

// code runs user u's training ratings through the hidden layers and
// returns the last one's activation, valid until the next call, and its
// base (see net.base).
func (e *evaluator) code(u int) ([]float64, float64) {
	items, vals := e.train.Row(u)
	e.t.load(vals, e.scale)
	a := e.net.encode(items, e.t.x, e.t)
	return a, e.net.base(a)
}

// sse returns the sum of squared errors, in the ratings' scale, of the
// predicted ratings of items against vals for a user of code a and base.
func (e *evaluator) sse(items []int32, vals []float32, a []float64, base float64) float64 {
	var s float64
	for i, j := range items {
		d := e.scale.out(e.net.out.Apply(e.net.output(j, a, base))) - float64(vals[i])
		s += d * d
	}
	return s
}

// rank sets recall[i] and ndcg[i] to user users[i]'s Recall@10 and
// NDCG@10: the user's training ratings go in, every item the user has not
// rated in training is scored, and the ten best are checked against the
// user's relevant test items.
func (e *evaluator) rank(users []int, recall, ndcg []float64) {
	e.eachScored(users, func(i, u int, scores []float64) {
		seen, _ := e.train.Row(u)
		e.top = topN(scores, seen, TopK, e.top)
		testItems, testVals := e.test.Row(u)
		recall[i], ndcg[i], _ = rankMetrics(e.top, testItems, testVals, e.relevant)
	})
}

// eachScored calls f with each user users[i] and every item's score for
// the user's training ratings, valid until f returns, a chunk of users at
// a time.
func (e *evaluator) eachScored(users []int, f func(i, u int, scores []float64)) {
	h, items := e.net.sizes[len(e.net.sizes)-1], e.net.items
	for from := 0; from < len(users); from += rankChunk {
		chunk := users[from:min(from+rankChunk, len(users))]
		e.codes = resized(e.codes, len(chunk)*h)
		for i, u := range chunk {
			a, _ := e.code(u)
			copy(e.codes[i*h:(i+1)*h], a)
		}
		e.scores = resized(e.scores, len(chunk)*items)
		e.net.scoreAll(e.codes, len(chunk), e.scores)
		for i, u := range chunk {
			f(from+i, u, e.scores[i*items:(i+1)*items])
		}
	}
}

// scoreAll sets dst, m rows of one value per item, to the output layer's
// pre-activations for the m last-hidden-layer activations in codes (m rows
// of h_L). Every output activation is non-decreasing, so these rank items
// as the predictions do, and break the predictions' ties (as a saturated
// sigmoid makes) by the pre-activation.
func (n *net) scoreAll(codes []float64, m int, dst []float64) {
	h := n.sizes[len(n.sizes)-1]
	linalg.Gemm(blas.NoTrans, blas.Trans, 1,
		blas64.General{Rows: m, Cols: h, Stride: h, Data: codes},
		blas64.General{Rows: n.items, Cols: h, Stride: h + 1, Data: n.dec},
		0, blas64.General{Rows: m, Cols: n.items, Stride: n.items, Data: dst})
	for i := range m {
		base := n.base(codes[i*h : (i+1)*h])
		row := dst[i*n.items : (i+1)*n.items]
		for j := range row {
			row[j] += n.dec[j*(h+1)+h] + base
		}
	}
}

// topN returns in buf the n items of the highest scores, best first,
// leaving out the items in seen (increasing); ties go to the lower item.
func topN(scores []float64, seen []int32, n int, buf []int32) []int32 {
	top := buf[:0]
	for j, s := range scores {
		if len(seen) > 0 && seen[0] == int32(j) {
			seen = seen[1:]
			continue
		}
		if len(top) == n && !(s > scores[top[n-1]]) {
			continue
		}
		if len(top) < n {
			top = append(top, 0)
		}
		i := len(top) - 1
		for ; i > 0 && s > scores[top[i-1]]; i-- {
			top[i] = top[i-1]
		}
		top[i] = int32(j)
	}
	return top
}

// topUnseen returns in buf the first n items of order that are not in
// seen (increasing).
func topUnseen(order, seen []int32, n int, buf []int32) []int32 {
	top := buf[:0]
	for _, j := range order {
		if _, found := slices.BinarySearch(seen, j); !found {
			if top = append(top, j); len(top) == n {
				break
			}
		}
	}
	return top
}

// rankMetrics returns Recall@10 and NDCG@10 of a ranking (see atCutoff).
func rankMetrics(top, testItems []int32, testVals []float32, relevant float64) (recall, ndcg float64, ok bool) {
	return atCutoff(top, testItems, testVals, relevant, TopK)
}
