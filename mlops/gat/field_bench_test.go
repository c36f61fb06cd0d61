package gat

import (
	"syscall"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/series"
)

// BenchmarkForecastEntity times one entity's forecast by the network
// (ForecastEntities, over the entity's receptive field) against every
// entity's (Forecast) on seeded panels of 1,000 and 3,000 entities x 156
// weeks with neighbors 10 and the default three convolutions, at 1 step
// and at 12 (recursive: steps 1..11 need every entity), and prints the
// field's size and the ratio measured in the same run. The network is the
// untrained one (its cost does not depend on its weights). Beside the
// wall-clock times it prints the process's CPU time (user and system, all
// threads), which a loaded host disturbs less.
func BenchmarkForecastEntity(b *testing.B) {
	for _, n := range []int{1000, 3000} {
		m := series.Synthetic(n, 156, 1, 52)
		cfg := DefaultConfig()
		cfg.Season, cfg.Neighbors, cfg.Anchor = 52, 10, AnchorLastValue
		model, err := Untrained(cfg, m)
		if err != nil {
			b.Fatal(err)
		}
		nodes, _ := model.field(m, []int{17})
		for _, steps := range []int{1, 12} {
			var one, all, oneCPU, allCPU time.Duration
			for range b.N {
				began, cpu := time.Now(), cpuTime()
				if _, err := model.ForecastEntities(m, steps, []int{17}); err != nil {
					b.Fatal(err)
				}
				one, oneCPU = one+time.Since(began), oneCPU+cpuTime()-cpu
				began, cpu = time.Now(), cpuTime()
				if _, err := model.Forecast(m, steps); err != nil {
					b.Fatal(err)
				}
				all, allCPU = all+time.Since(began), allCPU+cpuTime()-cpu
			}
			per := time.Duration(b.N)
			b.Logf("%d entities (field of the first step %d), %d steps: one entity %v (CPU %v), every entity %v (CPU %v) a forecast: %.3f of every entity's (CPU %.3f)",
				n, len(nodes), steps, one/per, oneCPU/per, all/per, allCPU/per, one.Seconds()/all.Seconds(), oneCPU.Seconds()/allCPU.Seconds())
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
