package recommender_test

import (
	"context"
	"reflect"
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
		closeWeights(t, label, want, models[0])
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

// TestShardedExchangeRounds checks that processes holding their own users
// only, which hand each other their items' ratings in rounds of a few
// ratings (rows cut across rounds, processes with unequal numbers of
// ratings, some with none left in the last rounds), and their rows after
// each epoch in rounds of a few rows, train exactly what they train when
// the ratings and the rows cross in one round.
func TestShardedExchangeRounds(t *testing.T) {
	train, test := lowRank(5, 300, 120, 3, 0.2, 0.3)
	cfg := smallConfig()
	cfg.Epochs = 2
	for _, shape := range [][2]int{{3, 1}, {2, 2}} {
		want, wantEpochs := sharded(t, cfg, shape[0], shape[1], train, test)
		ratings, rows := recommender.SetOwnedRatingsChunk(7), recommender.SetOwnedGatherRows(5)
		got, epochs := sharded(t, cfg, shape[0], shape[1], train, test)
		recommender.SetOwnedRatingsChunk(ratings)
		recommender.SetOwnedGatherRows(rows)
		for p := range got {
			if !reflect.DeepEqual(got[p].Weights, want[0].Weights) {
				t.Errorf("%dx%d: with rounds of 7 ratings and 5 rows, process %d trains other weights than in one round", shape[0], shape[1], p)
			}
		}
		for i := range epochs {
			epochs[i].Elapsed, epochs[i].Workers, epochs[i].Snapshot = 0, nil, nil
			wantEpochs[i].Elapsed, wantEpochs[i].Workers, wantEpochs[i].Snapshot = 0, nil, nil
		}
		if !reflect.DeepEqual(epochs, wantEpochs) {
			t.Errorf("%dx%d: rounds of 7 ratings and 5 rows give the epochs %+v, one round %+v", shape[0], shape[1], epochs, wantEpochs)
		}
	}
}
