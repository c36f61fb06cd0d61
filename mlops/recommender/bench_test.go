package recommender_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// shaped returns synthetic ratings shaped like MovieLens: user activity
// log-normal with a floor of 20 ratings and mean about ratings/users, item
// popularity Zipf-like, half-star ratings from a few latent tastes. The
// rows are built directly, without ids.
func shaped(seed uint64, users, items, ratings int) recommender.Ratings {
	rng := rand.New(rand.NewPCG(seed, 9))
	zipf := rand.NewZipf(rng, 1.1, 20, uint64(items-1))
	perm := rng.Perm(items) // popularity rank -> item, so popular items are spread out
	mean := float64(ratings) / float64(users)
	r := recommender.Ratings{Users: users, Items: items, Ptr: make([]int, users+1),
		Item: make([]int32, 0, ratings+ratings/8), Value: make([]float32, 0, ratings+ratings/8)}
	taste := func(id, k int) float64 { return math.Sin(float64(id*7919+k*104729) * 1e-3) }
	row := map[int32]bool{}
	var items32 []int32
	for u := range users {
		n := 20 + int((mean-20)*math.Exp(rng.NormFloat64()*1.1-0.605))
		n = min(n, items/2)
		clear(row)
		items32 = items32[:0]
		for len(items32) < n {
			j := int32(perm[zipf.Uint64()])
			if !row[j] {
				row[j] = true
				items32 = append(items32, j)
			}
		}
		slices.Sort(items32)
		for _, j := range items32 {
			v := 3.5 + 0.8*(taste(u, 1)*taste(int(j), 1)+taste(u, 2)*taste(int(j), 2)) + 0.7*rng.NormFloat64()
			r.Item = append(r.Item, j)
			r.Value = append(r.Value, float32(min(max(math.Round(2*v)/2, 0.5), 5)))
		}
		r.Ptr[u+1] = len(r.Item)
	}
	return r
}

// BenchmarkEpoch measures one training epoch, with its evaluation, by
// number of workers, on MovieLens small and on a synthetic set shaped like
// a tenth of MovieLens 25M (16k users, all 62k items, 2.5M ratings).
func BenchmarkEpoch(b *testing.B) {
	sets := []struct {
		name string
		data func() recommender.Ratings
	}{
		{"ml-small", func() recommender.Ratings { return movielens(b) }},
		{"ml25m-tenth", func() recommender.Ratings { return shaped(1, 16254, 62423, 2500000) }},
	}
	for _, set := range sets {
		train, test := recommender.Split(set.data(), 0.1, 1)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", set.name, workers), func(b *testing.B) {
				cfg := recommender.DefaultConfig()
				cfg.Epochs, cfg.Workers = 1, workers
				for b.Loop() {
					if _, err := recommender.Train(context.Background(), cfg, train, test, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkWorkersRatio measures what the goal of two workers is set on:
// the time of the first epoch (Epoch.Elapsed: setup, training and
// evaluation) with two workers over that with one, on the synthetic tenth
// of MovieLens 25M, ranking a tenth of the users the default ranks (as
// many per user as on the whole set). Each iteration is a round that runs
// both, alternating which goes first; the ratio reported is the median of
// the rounds', so run it with -benchtime=3x or more. Before each training
// the heap is collected and its free memory returned to the system, as
// train_recommender does, so that neither configuration inherits the
// other's pages; an untimed epoch first has the process touch as much
// memory as a training does, since on a virtual machine the first touch
// of memory new to the process can cost the host's work too.
func BenchmarkWorkersRatio(b *testing.B) {
	train, test := recommender.Split(shaped(1, 16254, 62423, 2500000), 0.1, 1)
	cfg := recommender.DefaultConfig()
	cfg.RankUsers /= 10
	workersRatio(b, cfg, train, test)
}

// workersRatio times the first epoch of cfg with one worker and with two,
// in rounds alternating which goes first after an untimed epoch (see
// BenchmarkWorkersRatio), logs where each worker's time went and reports
// the medians of the rounds.
func workersRatio(b *testing.B, cfg recommender.Config, train, test recommender.Ratings) {
	epoch := func(workers int) float64 {
		cfg.Epochs, cfg.Workers = 1, workers
		debug.FreeOSMemory()
		var e1 recommender.Epoch
		if _, err := recommender.Train(context.Background(), cfg, train, test, func(e recommender.Epoch) error {
			e1 = e
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		b.Logf("  %d worker(s), gradient+reduce+step+barrier+evaluate: %v", workers, e1.Workers)
		return e1.Elapsed.Seconds()
	}
	epoch(1)
	var ones, twos, ratios []float64
	for b.Loop() {
		var one, two float64
		if len(ratios)%2 == 0 {
			one, two = epoch(1), epoch(2)
		} else {
			two, one = epoch(2), epoch(1)
		}
		b.Logf("round %d: one worker %.2f s, two %.2f s, ratio %.3f", len(ratios)+1, one, two, two/one)
		ones, twos, ratios = append(ones, one), append(twos, two), append(ratios, two/one)
	}
	b.ReportMetric(median(ones), "s/epoch-1")
	b.ReportMetric(median(twos), "s/epoch-2")
	b.ReportMetric(median(ratios), "ratio")
}

// median is the median of xs, the upper one of an even number.
func median(xs []float64) float64 {
	xs = slices.Sorted(slices.Values(xs))
	return xs[len(xs)/2]
}
