package recommender_test

import (
	"context"
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/recommender"
)

// sharded trains cfg as processes x workers as spread does, but each
// process holds only its own users' ratings (Shard.Part) and the Shard of
// every rating; it returns every process's model and rank 0's epochs.
func sharded(t *testing.T, cfg recommender.Config, processes, workers int, train, test recommender.Ratings) ([]*recommender.Model, []recommender.Epoch) {
	t.Helper()
	cfg.Workers = processes * workers
	s := recommender.ShardOf(cfg, train, test, processes)
	return acrossProcesses(t, processes, workers, func(p int, coll parallel.Collective, report func(recommender.Epoch) error) (*recommender.Model, error) {
		return recommender.TrainShard(context.Background(), coll, cfg, s.Part(train, p), s.Part(test, p), &s, recommender.Start{}, report)
	})
}

// TestShardedProcesses checks that processes that each hold only their
// own users' ratings train what as many workers train in one process that
// holds them all: the same curves to 1e-9 relative and every process the
// same model bit for bit, the weights one process's to 1e-7, for both
// objectives; and that a Shard made for
// another number of processes is refused.
func TestShardedProcesses(t *testing.T) {
	checkAsOneProcess(t, func(cfg recommender.Config, processes, workers int, train, test recommender.Ratings) ([]*recommender.Model, []recommender.Epoch) {
		return sharded(t, cfg, processes, workers, train, test)
	}, func(label string, _ [2]int, want *recommender.Model, models []*recommender.Model) {
		// The workers add the same terms grouped otherwise, and Adam's
		// step for a gradient near 0 is its sign times lr whatever its
		// size: a weight may differ in a few units of 1e-9.
		for k := range want.Weights {
			for i, v := range want.Weights[k] {
				if got := models[0].Weights[k][i]; math.Abs(got-v) > 1e-7*max(1, math.Abs(v)) {
					t.Fatalf("%s: weight %d of table %d is %.15g, in one process %.15g", label, i, k, got, v)
				}
			}
		}
	})
	train, test := lowRank(5, 300, 120, 3, 0.2, 0.3)
	cfg := smallConfig()
	cfg.Workers = 2
	s := recommender.ShardOf(cfg, train, test, 3)
	for _, comm := range parallel.LocalComms(1) {
		_, err := recommender.TrainShard(context.Background(), parallel.NewRanks(comm, 2), cfg, s.Part(train, 0), s.Part(test, 0), &s, recommender.Start{}, nil)
		if err == nil {
			t.Errorf("a shard of 3 processes trained in 1 of 2 workers")
		}
	}
}
