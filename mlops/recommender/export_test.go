package recommender

import (
	"context"
	"sync"
	"time"
)

// InitialModel returns the model training with cfg on train starts from.
func InitialModel(cfg Config, train Ratings) (*Model, error) {
	run, err := newTraining(cfg, train, noRatings(train), Start{}, nil)
	if err != nil {
		return nil, err
	}
	return run.model(run.workers[0].net), nil
}

// BatchGradient returns the loss of a training step of cfg.Workers workers
// on the batch of users of train, with m's weights, and its gradient in
// the layout of m.Weights, as the workers compute it.
func BatchGradient(cfg Config, train Ratings, batch []int, m *Model) (loss float64, grad []Floats, err error) {
	return BatchGradientAt(cfg, train, batch, m, 0)
}

// BatchGradientAt is BatchGradient in the first batch of the given epoch,
// which sets the negatives, the dropout masks and, for RankingVAE, the
// code's noise and the KL term's weight.
func BatchGradientAt(cfg Config, train Ratings, batch []int, m *Model, epoch int) (loss float64, grad []Floats, err error) {
	run, err := newTraining(cfg, train, noRatings(train), Start{Model: m}, nil)
	if err != nil {
		return 0, nil, err
	}
	for _, w := range run.workers {
		w.epoch = epoch
	}
	sse := make([]float64, len(run.workers))
	errs := make([]error, len(run.workers))
	var wg sync.WaitGroup
	for rank, w := range run.workers {
		wg.Go(func() { sse[rank], errs[rank] = w.gradient(context.Background(), batch, nil) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, nil, err
		}
	}
	n := run.workers[0].net
	grad = []Floats{make(Floats, len(n.enc)), append(Floats(nil), run.workers[0].g.dense...), make(Floats, len(n.dec))}
	loss = sum(sse) / float64(run.workers[0].lossCount(batch))
	for _, l := range n.inner {
		loss += cfg.L2 / 2 * sumSquares(n.dense[l.w:l.b])
	}
	if n.head != 0 {
		w, _ := n.headWeights(n.dense)
		loss += cfg.L2 / 2 * sumSquares(w)
	}
	for _, w := range run.workers {
		w.eachRow(func(j int32) {
			copy(rowOf(grad[0], j, w.g.wEnc), w.ge)
			copy(rowOf(grad[2], j, w.g.wDec), w.gd)
			loss += run.penalty[j] / 2 * (sumSquares(n.encRow(j)) + sumSquares(n.decRow(j)))
		})
	}
	return loss, grad, nil
}

func sumSquares(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x * x
	}
	return s
}

// noRatings returns ratings of r's users and items with none.
func noRatings(r Ratings) Ratings {
	return Ratings{Users: r.Users, Items: r.Items, Ptr: make([]int, r.Users+1)}
}

// TopItems exposes topK.
func TopItems(scores []float64, seen []int32) []int32 { return topN(scores, seen, TopK, nil) }

// RankMetrics exposes rankMetrics.
var RankMetrics = rankMetrics

// TrainSkewed trains as Train does, with the worker of the last rank
// pausing for pause after computing its share of every batch, so that the
// others step rows ahead; it returns how many rows they stepped ahead.
func TrainSkewed(cfg Config, train, test Ratings, pause time.Duration, report func(Epoch) error) (*Model, int64, error) {
	run, err := newTraining(cfg, train, test, Start{}, report)
	if err != nil {
		return nil, 0, err
	}
	run.shareDone = func(rank int) {
		if rank == cfg.Workers-1 {
			time.Sleep(pause)
		}
	}
	m, err := run.run(context.Background())
	return m, run.steppedAhead.Load(), err
}

// UserRank exposes userRank: Recall@10, NDCG@10, Recall@20 and NDCG@100.
func UserRank(top, testItems []int32, testVals []float32, relevant float64) ([4]float64, bool) {
	r, ok := userRank(top, testItems, testVals, relevant)
	return [4]float64{r.recall10, r.ndcg10, r.recall20, r.ndcg100}, ok
}

// EASEWeights fits EASE's B to r with the given λ, skipping the choice of
// λ, and returns its columns (items) and B, row-major.
func EASEWeights(r Ratings, relevant, lambda float64) (cols []int32, b []float64) {
	e := &EASE{Items: r.Items, relevant: relevant}
	e.columns(r)
	e.b = e.solve(e.gram(r), lambda, nil)
	return e.cols, e.b
}

// FoldIn exposes foldIn.
var FoldIn = foldIn

// KLTerm exposes klTerm.
var KLTerm = klTerm

// AnnealBeta returns the KL term's weight in batch batch of epoch epoch of
// a run of cfg on train.
func AnnealBeta(cfg Config, train Ratings, epoch, batch int) (float64, error) {
	run, err := newTraining(cfg, train, noRatings(train), Start{}, nil)
	if err != nil {
		return 0, err
	}
	w := run.workers[0]
	w.epoch, w.batch = epoch, batch
	return w.beta(), nil
}

// SetOwnedRatingsChunk sets the ratings each process sends in one round
// of exchangeOwned and returns the previous number.
func SetOwnedRatingsChunk(n int) int {
	old := ownedRatingsChunk
	ownedRatingsChunk = n
	return old
}

// SetOwnedGatherRows sets the rows each process sends in one round of
// gatherOwned and returns the previous number.
func SetOwnedGatherRows(n int) int {
	old := ownedGatherRows
	ownedGatherRows = n
	return old
}
