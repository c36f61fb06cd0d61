package recommender

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkAdamRow measures one Adam step of a table row of 301 weights (an
// encoder row of 150 and a decoder row of 151), reporting ns per weight:
// "hot" steps the same row, which stays in cache; "cold" steps rows of a
// table of 60,000 in random order, as a batch's rows are, which the caches
// cannot hold.
func BenchmarkAdamRow(b *testing.B) {
	const width = 301
	for _, bench := range []struct {
		name string
		rows int
	}{{"hot", 1}, {"cold", 60000}} {
		b.Run(bench.name, func(b *testing.B) {
			o := newOptimizer(Config{Optimizer: "adam", LR: 0.001})
			o.next()
			w := make([]float64, width*bench.rows)
			mv := make([]float32, 2*width*bench.rows)
			g := make([]float64, width*bench.rows)
			for i := range g {
				g[i] = rand.Float64() - 0.5
			}
			order := rand.Perm(bench.rows)
			i := 0
			for b.Loop() {
				j := order[i%bench.rows]
				i++
				o.update(w[j*width:(j+1)*width], mv[2*j*width:2*(j+1)*width], g[j*width:(j+1)*width])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*width), "ns/weight")
		})
	}
}
