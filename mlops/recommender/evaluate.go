package recommender

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Metrics are one method's accuracy on held-out ratings: the RMSE of its
// predictions in the ratings' scale (NaN for a method that predicts no
// ratings), and Recall@10, NDCG@10, Recall@20 and NDCG@100 of its
// rankings averaged over the users with a relevant held-out item.
type Metrics struct {
	Method     string  `json:"method"`
	RMSE       float64 `json:"test_rmse"`
	RecallAt10 float64 `json:"recall_at_10"`
	NDCGAt10   float64 `json:"ndcg_at_10"`
	RecallAt20 float64 `json:"recall_at_20"`
	NDCGAt100  float64 `json:"ndcg_at_100"`
}

// The baselines Evaluate measures the model against.
const (
	// ItemMean predicts an item's training ratings' mean, shrunk towards
	// the global mean as if MeanPrior more ratings at the global mean had
	// been seen (so an unrated item gets the global mean); it ranks items
	// by that prediction, so an item with one perfect rating does not top
	// every list.
	ItemMean = "item_mean"
	// Popularity ranks items by their number of training ratings and
	// predicts the global mean rating for every item.
	Popularity = "popularity"
)

// MeanPrior is the number of global-mean ratings ItemMean adds to each item's.
const MeanPrior = 5

// Evaluate measures the model and the baselines on the test ratings, with
// the training ratings as each user's known ratings, in this order: Kind,
// ItemMean, Popularity. For the model, a user's training ratings are the
// input and its outputs at the user's test items the predictions. A test
// item is relevant to its user if rated at least model.Config.Relevant;
// each method ranks every item its user has not rated in training, and
// the metrics average over every user with a relevant test item, or over
// a sample of rankUsers of them chosen by the model's seed when there are
// more and rankUsers is not 0. Metrics without data to measure them on
// are NaN.
func Evaluate(ctx context.Context, model *Model, train, test Ratings, rankUsers int) ([]Metrics, error) {
	if err := checkData(train, test); err != nil {
		return nil, err
	}
	return RatingsProtocol(train, test, model.Config.Relevant, rankUsers, model.Config.Seed).Measure(ctx, model)
}

// heldOut is what a Protocol measures methods on: base, the ratings the
// baselines learn from; input, each measured user's known ratings (the
// model's input, left out of every ranking); scored, the held-out ratings
// predicted and ranked; ranked, the users whose rankings are averaged.
type heldOut struct {
	base, input, scored Ratings
	ranked              []int
	relevant            float64
}

// evaluateOn measures the model, when not nil, and the baselines on h.
func evaluateOn(ctx context.Context, model *Model, h heldOut) ([]Metrics, error) {
	var out []Metrics
	if model != nil {
		own, err := evaluateModel(ctx, model, h)
		if err != nil {
			return nil, err
		}
		out = append(out, own)
	}
	return append(out, itemMean(h.base).metrics(h), popularity(h.base).metrics(h)), nil
}

// evaluateModel measures the model with a goroutine per processor, each
// scoring a part of the users into per-user results summed in user order.
func evaluateModel(ctx context.Context, model *Model, h heldOut) (Metrics, error) {
	n, s, users := model.net(), scale{model.Min, model.Max}, h.input.Users
	testSSE, ranks := make([]float64, users), make([]rankScore, len(h.ranked))
	parts := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			ev := newEvaluator(n, h.input, h.scored, s, h.relevant)
			for u := p * users / parts; u < (p+1)*users/parts && ctx.Err() == nil; u++ {
				if items, vals := h.scored.Row(u); len(items) > 0 {
					a, base := ev.code(u)
					testSSE[u] = ev.sse(items, vals, a, base)
				}
			}
			for from := p * len(h.ranked) / parts; from < (p+1)*len(h.ranked)/parts && ctx.Err() == nil; from += rankChunk {
				to := min(from+rankChunk, (p+1)*len(h.ranked)/parts)
				ev.rankAll(h.ranked[from:to], ranks[from:to])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Metrics{}, err
	}
	rmse := math.Sqrt(sum(testSSE) / float64(h.scored.Len()))
	if model.Config.ranking() { // it predicts no ratings
		rmse = math.NaN()
	}
	return Metrics{Method: Kind, RMSE: rmse}.withRanking(ranks), nil
}

// rankAll sets out[i] to user users[i]'s ranking metrics, as rank does.
func (e *evaluator) rankAll(users []int, out []rankScore) {
	e.eachScored(users, func(i, u int, scores []float64) {
		seen, _ := e.train.Row(u)
		e.top = topN(scores, seen, longest, e.top)
		testItems, testVals := e.test.Row(u)
		out[i], _ = userRank(e.top, testItems, testVals, e.relevant)
	})
}

// baseline predicts a rating per item and ranks items in one order for
// every user.
type baseline struct {
	name    string
	predict []float64 // by item
	order   []int32   // items, best first
}

// itemMean is the ItemMean baseline of the training ratings.
func itemMean(train Ratings) baseline {
	sums, counts, global := itemSums(train)
	b := baseline{name: ItemMean, predict: make([]float64, train.Items)}
	for j := range b.predict {
		b.predict[j] = (sums[j] + MeanPrior*global) / (float64(counts[j]) + MeanPrior)
	}
	b.order = ordered(b.predict)
	return b
}

// popularity is the Popularity baseline of the training ratings.
func popularity(train Ratings) baseline {
	_, counts, global := itemSums(train)
	b := baseline{name: Popularity, predict: make([]float64, train.Items)}
	count := make([]float64, train.Items)
	for j := range b.predict {
		b.predict[j], count[j] = global, float64(counts[j])
	}
	b.order = ordered(count)
	return b
}

// itemSums returns each item's sum and number of training ratings and the
// mean of all of them.
func itemSums(train Ratings) (sums []float64, counts []int, global float64) {
	sums, counts = make([]float64, train.Items), make([]int, train.Items)
	for i, j := range train.Item {
		sums[j] += float64(train.Value[i])
		counts[j]++
		global += float64(train.Value[i])
	}
	return sums, counts, global / float64(train.Len())
}

// ordered returns the items by decreasing key, ties to the lower item.
func ordered(key []float64) []int32 {
	order := make([]int32, len(key))
	for j := range order {
		order[j] = int32(j)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(key[b], key[a]) })
	return order
}

// metrics measures the baseline as Evaluate documents, on h.
func (b baseline) metrics(h heldOut) Metrics {
	var sse float64
	for i, j := range h.scored.Item {
		d := b.predict[j] - float64(h.scored.Value[i])
		sse += d * d
	}
	ranks := make([]rankScore, len(h.ranked))
	var top []int32
	for i, u := range h.ranked {
		seen, _ := h.input.Row(u)
		top = topUnseen(b.order, seen, longest, top)
		testItems, testVals := h.scored.Row(u)
		ranks[i], _ = userRank(top, testItems, testVals, h.relevant)
	}
	return Metrics{Method: b.name, RMSE: math.Sqrt(sse / float64(h.scored.Len()))}.withRanking(ranks)
}
