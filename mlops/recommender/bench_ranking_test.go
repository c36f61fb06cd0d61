package recommender_test

import (
	"os"
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
	cfg := recommender.DefaultRankingConfig()
	cfg.RankUsers = int(float64(cfg.RankUsers) * scale)
	workersRatio(b, cfg, train, test)
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
