package recommender

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync/atomic"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// Epoch reports one epoch: the RMSE, in the ratings' own scale, over the
// training and the test ratings after it (NaN for the ranking objective,
// whose outputs are no ratings), Recall@10 and NDCG@10 (see Evaluate;
// over at most Config.RankUsers users), the training loss, and the time
// since training started. A metric without data to measure it on is NaN.
type Epoch struct {
	Epoch               int
	TrainRMSE, TestRMSE float64
	// TrainLoss is the objective's loss, without the penalty, summed over
	// the epoch's batches as training met them and divided by the training
	// ratings (for Rating: a mean squared error in [0, 1]) or by the users
	// trained on (for Ranking: a negative log-likelihood per user; for
	// RankingVAE, plus β times the KL term, as training weighted it).
	TrainLoss            float64
	RecallAt10, NDCGAt10 float64
	Elapsed              time.Duration
	// Workers is where each worker's time in the epoch went, by rank.
	Workers []WorkerTime
	// Snapshot copies the model as it is after this epoch; it may be
	// called only while the report of the epoch runs.
	Snapshot func() *Model
}

// SelectionLoss is the loss by which an epoch of a model of objective is
// the best so far, and a version is deployed: the test RMSE, or for the
// ranking objectives, whose outputs are no ratings, 1 − NDCG@10.
func SelectionLoss(objective string, e Epoch) float64 {
	if IsRanking(objective) {
		return 1 - e.NDCGAt10
	}
	return e.TestRMSE
}

// WorkerTime is where one worker's time in an epoch went: computing its
// share of the batches' gradients, waiting in the all-reduce of the dense
// gradient for the other workers (across processes, in the exchanges of
// ownedRows), stepping table rows and its replica of
// the dense part, waiting at the end of the batches, and evaluating
// (waiting for the others included). The parts add up to the epoch's time.
type WorkerTime struct {
	Gradient, Reduce, Step, Barrier, Evaluate time.Duration
}

// String is w in seconds: gradient+reduce+step+barrier+evaluate.
func (w WorkerTime) String() string {
	return fmt.Sprintf("%.1f+%.1f+%.1f+%.1f+%.1fs", w.Gradient.Seconds(), w.Reduce.Seconds(), w.Step.Seconds(),
		w.Barrier.Seconds(), w.Evaluate.Seconds())
}

// Start is where a training run begins: from scratch (the zero Start), or
// from a model's weights after the epochs it has done. The optimiser's
// state (Adam's moments) starts afresh either way.
type Start struct {
	Model *Model
	Epoch int
}

// Train trains an autoencoder on the training ratings and measures it on
// the test ratings, which must have the same users and items. report is
// called after every epoch, from one goroutine; an error from it, or ctx's,
// stops training. The result depends on the seed and the data, and on the
// number of workers only through the order of floating-point sums.
func Train(ctx context.Context, cfg Config, train, test Ratings, report func(Epoch) error) (*Model, error) {
	return TrainFrom(ctx, cfg, train, test, Start{}, report)
}

// TrainFrom trains as Train does, from start: epochs are numbered on from
// start.Epoch, up to cfg.Epochs. The model's architecture and items must
// be cfg's and the data's; its rating scale is kept.
func TrainFrom(ctx context.Context, cfg Config, train, test Ratings, start Start, report func(Epoch) error) (*Model, error) {
	return TrainOn(ctx, parallel.NewLocal(cfg.Workers), cfg, train, test, start, report)
}

// TrainOn trains as TrainFrom does, with the workers of coll (cfg.Workers
// of them) that run in this process (see parallel.Locals): workers in
// other processes, each training on the same ratings, take their shares
// of every mini-batch (see ownedRows for how the tables then meet). Every
// process returns the same model; report is called in the process of
// rank 0 only.
func TrainOn(ctx context.Context, coll parallel.Collective, cfg Config, train, test Ratings, start Start, report func(Epoch) error) (*Model, error) {
	if coll.Size() != cfg.Workers {
		return nil, fmt.Errorf("recommender: a collective of %d workers for workers %d", coll.Size(), cfg.Workers)
	}
	run, err := newTrainingOn(coll, cfg, train, test, start, report)
	if err != nil {
		return nil, err
	}
	return run.run(ctx)
}

// run trains on every epoch with the run's workers.
func (run *training) run(ctx context.Context) (*Model, error) {
	defer run.pages(false)
	if err := parallel.RunLocals(ctx, run.coll, func(ctx context.Context, rank int) error { return run.workers[rank-run.lead].loop(ctx) }); err != nil {
		return nil, err
	}
	return run.model(run.workers[0].net), nil
}

// training is the state the workers of one run share. The tables and
// their Adam moments exist once, for every worker: see the package
// comment for who writes them when.
type training struct {
	cfg         Config
	train, test Ratings
	scale       scale
	coll        parallel.Collective
	lead        int        // the lowest rank in this process
	whole       bool       // whether every worker runs in this process
	span        *spanRows  // this process among the run's processes; nil when whole
	owned       *ownedRows // across processes, the ratings of this process's items (see ownedRows); nil when whole
	shard       *Shard     // what this process needs of the ratings it does not hold; nil when it holds them all
	own         []int      // with shard, the users this process holds
	ownRanked   []int      // with shard, the positions in ranked of the users this process holds
	workers     []*worker  // this process's, from rank lead on
	enc, dec    []float64  // the shared tables
	encMV       []float32  // their Adam moments (see optimizer.update); nil for SGD
	decMV       []float32
	users       []int     // the users with training ratings (for Ranking, interactions)
	sampler     *sampler  // the ranking objective's negatives; nil for Rating
	penalty     []float64 // by item: the weight of its rows' penalty in a batch that uses them
	ranked      []int     // the users the epoch's ranking metrics average
	start       time.Time
	report      func(Epoch) error
	first       int // the number of the first epoch to run

	// Per-user results of an epoch's evaluation, each written by the
	// worker that claimed or ranked the user and read by rank 0.
	trainSSE, testSSE []float64    // by user
	recall, ndcg      []float64    // by position in ranked
	times             []WorkerTime // by rank
	losses            []float64    // by rank: its share of the epoch's loss

	// What the workers claim as they go: the entries of their grads whose
	// rows to step (see eachRow) and the users to evaluate; rank 0 resets
	// them where no worker claims.
	rows, evaluated claims
	// arrived counts the workers that have computed their share of a
	// batch's gradient, over the whole run (see worker.stepAhead), and
	// steppedAhead the rows they stepped ahead.
	arrived, steppedAhead atomic.Int64
	// shareDone, if not nil, is called by each worker when it has computed
	// its share of a batch's gradient: tests slow a worker down with it.
	shareDone func(rank int)
}

// claims hands out the positions of a list of work to the workers, a run
// at a time, in the order they ask. Where the result does not depend on
// who does which part, the workers so finish together however their
// speeds differ (the work of equal parts differs, and the system may take
// a worker's processor away for a while), where fixed parts would leave
// the first to finish waiting for the last.
type claims struct{ next atomic.Int64 }

// claim returns the next run of at most size positions below n, an empty
// one when none is left.
func (c *claims) claim(size, n int) (lo, hi int) {
	lo = int(c.next.Add(int64(size))) - size
	return min(lo, n), min(lo+size, n)
}

// reset starts the list over.
func (c *claims) reset() { c.next.Store(0) }

func newTraining(cfg Config, train, test Ratings, start Start, report func(Epoch) error) (*training, error) {
	return newTrainingOn(parallel.NewLocal(cfg.Workers), cfg, train, test, start, report)
}

func newTrainingOn(coll parallel.Collective, cfg Config, train, test Ratings, start Start, report func(Epoch) error) (*training, error) {
	return newTrainingOf(coll, cfg, train, test, start, nil, report)
}

// newTrainingOf is newTrainingOn for the ratings of every user, or, with
// shard, for this process's users only (see TrainShard).
func newTrainingOf(coll parallel.Collective, cfg Config, train, test Ratings, start Start, shard *Shard, report func(Epoch) error) (*training, error) {
	cfg = cfg.ForItems(train.Items)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := checkData(train, test); err != nil {
		return nil, err
	}
	lo, hi := train.scale()
	mean, ratings := mean32(train.Value), train.Len()
	if shard != nil {
		lo, hi, mean, ratings = shard.Min, shard.Max, shard.Mean, shard.TrainRatings
	}
	if ratings == 0 {
		return nil, fmt.Errorf("no training ratings")
	}
	r := &training{cfg: cfg, train: train, test: test, scale: scale{lo, hi}, coll: coll, shard: shard,
		start: time.Now(), report: report, first: start.Epoch + 1}
	enc, dense, dec := initWeights(cfg, train.Items, r.scale.in(mean), rand.New(rand.NewPCG(cfg.Seed, 0)))
	if m := start.Model; m != nil {
		if err := m.fits(cfg, train.Items); err != nil {
			return nil, err
		}
		copy(enc, m.Weights[0])
		copy(dense, m.Weights[1])
		copy(dec, m.Weights[2])
		r.scale = scale{m.Min, m.Max}
	}
	opt := newOptimizer(cfg)
	r.enc, r.dec = enc, dec
	r.encMV, r.decMV = opt.moments(len(enc)), opt.moments(len(dec))
	r.pages(true)
	var counts []int
	if shard != nil {
		counts, r.users = shard.Counts, shard.Learners
	} else {
		counts, r.users = itemCounts(cfg, train, r.scale)
	}
	var sampled []float64
	if cfg.ranking() {
		r.sampler = newSampler(cfg.Negatives, counts)
		sampled = r.sampler.chance(train.Items)
	}
	r.penalty = rowPenalties(counts, len(r.users), cfg.BatchSize, cfg.L2, sampled)
	if shard != nil {
		r.ranked = shard.Ranked
	} else {
		r.ranked = rankedUsers(test, cfg.Relevant, cfg.RankUsers, cfg.Seed)
	}
	r.trainSSE, r.testSSE = make([]float64, train.Users), make([]float64, train.Users)
	r.times, r.losses = make([]WorkerTime, cfg.Workers), make([]float64, cfg.Workers)
	r.recall, r.ndcg = make([]float64, len(r.ranked)), make([]float64, len(r.ranked))
	lead, locals := parallel.Locals(coll)
	r.lead, r.whole = lead, locals == cfg.Workers
	if !r.whole {
		if _, ok := coll.(gatherer); !ok {
			return nil, fmt.Errorf("recommender: workers spread over processes need a collective that all-gathers, not a %T", coll)
		}
		r.span = newSpanRows(coll, train.Users)
	}
	if !r.whole && shard == nil {
		r.owned = ownedOf(cfg, train, r.scale, r.span.processes, r.span.process)
	}
	if shard != nil {
		for u := range train.Users {
			if shard.Owner(u) == r.process() {
				r.own = append(r.own, u)
			}
		}
		for p, u := range r.ranked {
			if shard.Owner(u) == r.process() {
				r.ownRanked = append(r.ownRanked, p)
			}
		}
	}
	for i := range locals {
		r.workers = append(r.workers, r.newWorker(lead+i, dense))
	}
	return r, nil
}

// pages advises the kernel to back the tables and their moments with huge
// pages, or no longer to. The workers read and write them at random rows,
// hundreds of megabytes of them (300 MB for 62,000 items and the default
// layers): with 4 KB pages nearly every row misses the TLB, and the first
// touch of each page faults, some 70,000 times in a run's first epoch, most
// of them in the optimiser's steps, where two workers faulting at once
// slow each other (in the kernel, and on a virtual machine in the host)
// while the barrier makes each wait for the other. On a 2-core virtual
// machine, on a tenth of MovieLens 25M, huge pages took the first epoch
// from 10.1 to 9.0 s with one worker and from 6.0 to 5.2 s with two
// (medians of 24 runs), and further where the memory was new to the
// process. Advice given before the tables are first touched (initWeights
// gives it for the weights) holds for the run; at its end the tables'
// memory goes back to the heap, for which the advice is withdrawn, so that
// the kernel does not fold the heap's sparsely used pages there into huge
// ones.
func (r *training) pages(on bool) {
	hugePages(r.enc, on)
	hugePages(r.dec, on)
	hugePages(r.encMV, on)
	hugePages(r.decMV, on)
}

// checkData reports training and test ratings that are malformed or do
// not share their users and items.
func checkData(train, test Ratings) error {
	if err := train.Validate(); err != nil {
		return fmt.Errorf("training %w", err)
	}
	if err := test.Validate(); err != nil {
		return fmt.Errorf("test %w", err)
	}
	if train.Users != test.Users || train.Items != test.Items {
		return fmt.Errorf("training ratings have %d users and %d items, test ratings %d and %d",
			train.Users, train.Items, test.Users, test.Items)
	}
	return nil
}

// rankedUsers returns, in increasing order, the users with a test rating
// of at least relevant, or a sample of limit of them chosen by seed when
// there are more and limit is not 0.
func rankedUsers(test Ratings, relevant float64, limit int, seed uint64) []int {
	var users []int
	for u := range test.Users {
		_, vals := test.Row(u)
		for _, v := range vals {
			if float64(v) >= relevant {
				users = append(users, u)
				break
			}
		}
	}
	if limit > 0 && len(users) > limit {
		rng := rand.New(rand.NewPCG(seed, 1))
		rng.Shuffle(len(users), func(i, j int) { users[i], users[j] = users[j], users[i] })
		users = users[:limit]
		sort.Ints(users)
	}
	return users
}

// model copies the run's weights, with n's dense part, into a Model.
func (r *training) model(n *net) *Model {
	return &Model{Config: r.cfg, Items: r.train.Items, Min: r.scale.lo, Max: r.scale.hi,
		ItemIDs: r.train.ItemIDs, UserIDs: r.train.UserIDs,
		Weights: []Floats{append(Floats(nil), n.enc...), append(Floats(nil), n.dense...), append(Floats(nil), n.dec...)}}
}

// mean32 is the mean of xs.
func mean32(xs []float32) float64 {
	var s float64
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

// shuffled is the users in the order of epoch: the same on every worker and run.
func shuffled(users []int, seed uint64, epoch int) []int {
	out := append([]int(nil), users...)
	rng := rand.New(rand.NewPCG(seed, uint64(epoch)))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
