package recommender

import (
	"context"
	"fmt"

	"github.com/mallard/mallard/mlops/parallel"
)

// Shard is what the processes of a run need of the ratings they do not
// hold, when each holds only its own users' rows (TrainShard): user u is
// the process u mod Processes's. These statistics are over every rating,
// computed once where all of them are (ShardOf), so that the processes
// train what one process that holds them all trains.
type Shard struct {
	Processes int `json:"processes"`
	// Users and Items are the numbers of users and items.
	Users int `json:"users"`
	Items int `json:"items"`
	// Rated is, by user, its number of training ratings: the dealing of a
	// batch's users to the workers and the loss's weight count them.
	Rated []int `json:"rated"`
	// Counts is, by item, how many of the Learners have it in their
	// training row (the rows' penalties and the negatives' sampler), and
	// Learners are the users training learns from (see itemCounts).
	Counts   []int `json:"counts"`
	Learners []int `json:"learners"`
	// Ranked are the users the epochs' ranking metrics average.
	Ranked []int `json:"ranked"`
	// TrainRatings and TestRatings are the numbers of ratings, which the
	// RMSEs divide by.
	TrainRatings int `json:"train_ratings"`
	TestRatings  int `json:"test_ratings"`
	// Min and Max are the training ratings' scale and Mean their mean
	// (which initialises the output bias).
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// ShardOf is the Shard of a run of cfg on train and test (every rating)
// across processes.
func ShardOf(cfg Config, train, test Ratings, processes int) Shard {
	lo, hi := train.scale()
	s := Shard{Processes: processes, Users: train.Users, Items: train.Items, Rated: make([]int, train.Users),
		TrainRatings: train.Len(), TestRatings: test.Len(), Min: lo, Max: hi, Mean: mean32(train.Value),
		Ranked: rankedUsers(test, cfg.Relevant, cfg.RankUsers, cfg.Seed)}
	for u := range train.Users {
		s.Rated[u] = train.Ptr[u+1] - train.Ptr[u]
	}
	s.Counts, s.Learners = itemCounts(cfg, train, scale{lo, hi})
	return s
}

// Owner is the process that holds user u's rows.
func (s *Shard) Owner(u int) int { return u % s.Processes }

// Part keeps of r the rows of the users process holds; the others' rows
// are empty.
func (s *Shard) Part(r Ratings, process int) Ratings {
	out := Ratings{Users: r.Users, Items: r.Items, Ptr: make([]int, r.Users+1), UserIDs: r.UserIDs, ItemIDs: r.ItemIDs}
	for u := range r.Users {
		if s.Owner(u) == process {
			items, vals := r.Row(u)
			out.Item, out.Value = append(out.Item, items...), append(out.Value, vals...)
		}
		out.Ptr[u+1] = len(out.Item)
	}
	return out
}

// TrainShard trains as TrainOn does, from start, where this process's
// train and test hold the rows of its own users only (see Shard.Part) and
// s says what the run needs of the others'. Each process's workers are
// dealt only its users of each batch, and evaluate and rank only them; so
// the sums over the workers add the same terms as in one process, grouped
// otherwise, and the model equals one process's to the last bits of those
// sums. The processes must be s.Processes, each with as many of coll's
// workers.
func TrainShard(ctx context.Context, coll parallel.Collective, cfg Config, train, test Ratings, s *Shard, start Start, report func(Epoch) error) (*Model, error) {
	if coll.Size() != cfg.Workers {
		return nil, fmt.Errorf("recommender: a collective of %d workers for workers %d", coll.Size(), cfg.Workers)
	}
	first, locals := parallel.Locals(coll)
	if coll.Size() != s.Processes*locals || first%locals != 0 {
		return nil, fmt.Errorf("recommender: the ratings are sharded for %d processes, and %d workers run %d to a process", s.Processes, coll.Size(), locals)
	}
	if train.Users != s.Users || train.Items != s.Items || test.Users != s.Users || test.Items != s.Items || len(s.Rated) != s.Users ||
		len(s.Counts) != s.Items {
		return nil, fmt.Errorf("recommender: a shard of %d users and %d items for ratings of %d and %d", s.Users, s.Items, train.Users, train.Items)
	}
	run, err := newTrainingOf(coll, cfg, train, test, start, s, report)
	if err != nil {
		return nil, err
	}
	return run.run(ctx)
}

// process is this process's number among the run's processes.
func (r *training) process() int {
	if r.span == nil {
		return 0
	}
	return r.span.process
}

// ratingCounts are the numbers of training and test ratings, of every
// process.
func (r *training) ratingCounts() (train, test int) {
	if r.shard != nil {
		return r.shard.TrainRatings, r.shard.TestRatings
	}
	return r.train.Len(), r.test.Len()
}

// ownShare is share for a run whose processes hold their own users only:
// the batch's users this process holds, dealt to its workers as share
// deals a batch to every worker.
func (w *worker) ownShare(batch []int) []int {
	d := &w.deal
	d.held = d.held[:0]
	for _, u := range batch {
		if w.shard.Owner(u) == w.span.process {
			d.held = append(d.held, u)
		}
	}
	return w.dealt(d.held, len(w.workers), w.rank-w.lead)
}

// rankOwn ranks this worker's part of the ranked users this process
// holds, into their positions of the run's results.
func (w *worker) rankOwn() {
	i, n := w.rank-w.lead, len(w.workers)
	pos := w.ownRanked[i*len(w.ownRanked)/n : (i+1)*len(w.ownRanked)/n]
	users, recall, ndcg := make([]int, len(pos)), make([]float64, len(pos)), make([]float64, len(pos))
	for k, p := range pos {
		users[k] = w.ranked[p]
	}
	w.ev.rank(users, recall, ndcg)
	for k, p := range pos {
		w.recall[p], w.ndcg[p] = recall[k], ndcg[k]
	}
}
