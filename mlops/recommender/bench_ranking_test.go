package recommender_test

import (
	"context"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

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
	epoch := func(workers int) float64 {
		cfg := recommender.DefaultRankingConfig()
		cfg.Epochs, cfg.Workers, cfg.RankUsers = 1, workers, int(float64(cfg.RankUsers)*scale)
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
	epoch(1) // untimed, so that neither configuration pays for memory new to the process
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
	b.ReportMetric(peakRSS(b), "MB-peak")
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
