package baseline_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
)

// rCost is what R's forecast package spends per series of a panel, in
// CPU time: ets() and auto.arima() on the training rows.
type rCost struct {
	ets, arima time.Duration
}

// runRCost runs testdata/ets_onestep.R and testdata/arima_onestep.R on
// the series of s (auto.arima with frequency s.season) and returns their
// fitting CPU time per series, each measured inside R.
func runRCost(tb testing.TB, s projectSet) rCost {
	var c rCost
	for _, r := range runRETS(tb, s) {
		c.ets += r.cpu
	}
	p := parityPanel{name: s.name, period: s.season}
	for n := range s.m.N {
		y := make([]float64, s.m.T)
		for t := range y {
			y[t] = s.m.At(t, n)
		}
		p.names, p.series = append(p.names, fmt.Sprintf("s%d", n)), append(p.series, y)
	}
	_, _, cpu, _ := rOneStep(tb, p, s.train)
	for _, sec := range cpu {
		c.arima += time.Duration(sec * float64(time.Second))
	}
	k := time.Duration(s.m.N)
	return rCost{c.ets / k, c.arima / k}
}

// BenchmarkLadderAgainstR times, per panel of the project's data sets
// rescaled as the forecasting study rescales them (projectSets), fitting
// every method of the ladder (baseline.Kinds) on the training rows, and
// prints one line per panel: the CPU time per series of ets, arima,
// theta and the whole ladder, those of R's ets() and auto.arima() on
// the same series in the same run (R run once per panel, before the
// timing), and R's over ours. CPU time (user + system) is what each fit
// costs on a machine shared with other work. Run it with
//
//	go test -tags duckdb_arrow -run '^$' -bench BenchmarkLadderAgainstR -benchtime 5x ./mlops/baseline/
func BenchmarkLadderAgainstR(b *testing.B) {
	for _, s := range projectSets(b, true) {
		r := runRCost(b, s)
		train := make([]int, 0, s.train)
		for t := 1; t < s.train; t++ {
			train = append(train, t)
		}
		opt := baseline.Options{Window: 1, Season: s.season}
		b.Run(s.name, func(b *testing.B) {
			spent := map[baseline.Kind]time.Duration{}
			for range b.N {
				for _, kind := range baseline.Kinds() {
					cpu0 := cpuTime(b)
					if _, err := baseline.FitForecaster(kind, s.m, train, opt); err != nil {
						b.Fatalf("%s %s: %v", s.name, kind, err)
					}
					spent[kind] += cpuTime(b) - cpu0
				}
			}
			per := func(kind baseline.Kind) time.Duration { return spent[kind] / time.Duration(b.N*s.m.N) }
			var ladder time.Duration
			for _, kind := range baseline.Kinds() {
				ladder += per(kind)
			}
			ets, arima, theta := per(baseline.KindETS), per(baseline.KindARIMA), per(baseline.KindTheta)
			b.ReportMetric(float64(r.ets)/float64(ets), "Rets/ets-cpu")
			b.ReportMetric(float64(r.arima)/float64(arima), "Rarima/arima-cpu")
			b.ReportMetric(float64(r.ets+r.arima)/float64(ladder), "R/ladder-cpu")
			fmt.Printf("%s (%d series, %d training rows, season %d), CPU per series: ets %.2f ms, arima %.2f ms, theta %.2f ms, ladder (%d methods) %.2f ms | R ets %.1f ms, R auto.arima %.1f ms | R ets/ets %.1fx, R auto.arima/arima %.1fx, R (ets + auto.arima)/ladder %.1fx\n",
				s.name, s.m.N, s.train, s.season, msOf(ets), msOf(arima), msOf(theta), len(baseline.Kinds()), msOf(ladder),
				msOf(r.ets), msOf(r.arima), float64(r.ets)/float64(ets), float64(r.arima)/float64(arima), float64(r.ets+r.arima)/float64(ladder))
		})
	}
}

// msOf is d in milliseconds.
func msOf(d time.Duration) float64 { return d.Seconds() * 1000 }
