package recommender_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/recommender"
)

// BenchmarkRankingWorkers measures the ranking objective at the
// MovieLens-25M shape scaled by REC_BENCH_SCALE (a tenth by default): the
// first epoch's time with one worker and with two (alternating which goes
// first, the ratio the median of the rounds', after an untimed epoch as
// BenchmarkWorkersRatio has), and the process's peak resident memory, the
// synthetic ratings included.
func BenchmarkRankingWorkers(b *testing.B) {
	scale := 0.1
	if s, err := strconv.ParseFloat(os.Getenv("REC_BENCH_SCALE"), 64); err == nil {
		scale = s
	}
	train, test := recommender.Split(shaped(1, int(162541*scale), int(62423*min(1, 10*scale)), int(25000095*scale)), 0.1, 1)
	cfg := recommender.DefaultRankingConfig()
	cfg.RankUsers = int(float64(cfg.RankUsers) * scale)
	workersRatio(b, cfg, train, test)
	b.ReportMetric(peakRSS(b), "MB-peak")
}

// BenchmarkRecommend measures Model.Recommend at k = 10 for each
// objective's default network over MovieLens-25M's 62,423 items, for
// users of a tenth of its shape drawn in turn: the model's part of
// recommend's latency, without the server. <objective>/served is
// Recommend alone (its ns/op and allocations); <objective>/interleaved
// runs ReferenceRecommend, the computation Recommend replaced, on the
// same user in each round, alternating which goes first, and reports
// both medians and their ratio, so that one run on a busy host still
// compares them. The weights are the initial ones; a trained model costs
// the same.
func BenchmarkRecommend(b *testing.B) {
	train := shaped(1, 16254, 62423, 2500000)
	for _, cfg := range []recommender.Config{recommender.DefaultConfig(), recommender.DefaultRankingConfig(), recommender.DefaultRankingVAEConfig()} {
		m, err := recommender.InitialModel(cfg, train)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(cfg.Objective+"/served", func(b *testing.B) {
			u := 0
			for b.Loop() {
				items, vals := train.Row(u)
				if got := m.Recommend(items, vals, 10, true); len(got) != 10 {
					b.Fatalf("%d items recommended, want 10", len(got))
				}
				u = (u + 7919) % train.Users
			}
		})
		b.Run(cfg.Objective+"/interleaved", func(b *testing.B) {
			paths := []func([]int32, []float32, int, bool) []recommender.Scored{m.Recommend, m.ReferenceRecommend}
			var spent [2][]float64
			u, round := 0, 0
			for b.Loop() {
				items, vals := train.Row(u)
				for i := range paths {
					p := (i + round) % 2
					start := time.Now()
					paths[p](items, vals, 10, true)
					spent[p] = append(spent[p], float64(time.Since(start))/1e6)
				}
				u, round = (u+7919)%train.Users, round+1
			}
			served, reference := median(spent[0]), median(spent[1])
			b.ReportMetric(served, "ms-served")
			b.ReportMetric(reference, "ms-reference")
			b.ReportMetric(served/reference, "served/reference")
		})
	}
}

// peakRSS is the process's peak resident memory in MB (VmHWM).
func peakRSS(b *testing.B) float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkRankingObjectivesCost measures, on MovieLens small's training
// split, an epoch of DefaultRankingVAEConfig (there the exact softmax),
// of the same with 3,000 sampled negatives (its former default) and of
// DefaultRankingConfig, one worker each, rotating which goes first in
// each of b.N rounds of 3 epochs a configuration, and reports the ratios
// of their summed times: what the variational objective and its softmax
// cost over the denoising default, and the exact softmax over the sampled.
func BenchmarkRankingObjectivesCost(b *testing.B) {
	train, test := recommender.Split(movielens(b), 0.1, 1)
	sampled := recommender.DefaultRankingVAEConfig()
	sampled.Negatives = recommender.SampledNegatives
	cfgs := []recommender.Config{recommender.DefaultRankingConfig(), recommender.DefaultRankingVAEConfig(), sampled}
	spent := make([]time.Duration, len(cfgs))
	round := 0
	for b.Loop() {
		for k := range cfgs {
			which := (k + round) % len(cfgs)
			cfg := cfgs[which]
			cfg.Epochs, cfg.RankUsers = 3, 1
			start := time.Now()
			if _, err := recommender.Train(context.Background(), cfg, train, test, nil); err != nil {
				b.Fatal(err)
			}
			spent[which] += time.Since(start)
		}
		round++
	}
	b.ReportMetric(spent[0].Seconds()/float64(3*round), "s/epoch-ranking")
	b.ReportMetric(spent[1].Seconds()/float64(3*round), "s/epoch-vae")
	b.ReportMetric(spent[2].Seconds()/float64(3*round), "s/epoch-vae-3000")
	b.ReportMetric(spent[1].Seconds()/spent[0].Seconds(), "vae/ranking")
	b.ReportMetric(spent[1].Seconds()/spent[2].Seconds(), "vae/vae-3000")
}
