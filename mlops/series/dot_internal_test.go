package series

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
)

// TestDotIsFloatsDot: dot, and dots row by row, are floats.Dot bit for bit at every length up to
// 70, on values of mixed magnitudes whose sums round differently in
// another order.
func TestDotIsFloatsDot(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for n := range 71 {
		for range 200 {
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(12)-6))
				y[i] = r.NormFloat64()
			}
			want := floats.Dot(x, y)
			if got := dot(x, y); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("length %d: dot %v, floats.Dot %v", n, got, want)
			}
			rows := append(append(make([]float64, 0, 2*n), y...), x...)
			out := make([]float64, 2)
			dots(rows, y, out)
			if math.Float64bits(out[1]) != math.Float64bits(want) || out[0] != floats.Dot(y, y) {
				t.Fatalf("length %d: dots %v, floats.Dot %v", n, out, want)
			}
		}
	}
}

// BenchmarkStrongestAll prints the blocked top-k's time against listing
// each target's sources with Strongest, in the same run, for 3,000
// entities, windows of 4 rows and 10 neighbours.
func BenchmarkStrongestAll(b *testing.B) {
	const n, rows, window, keep = 3000, 8, 4, 10
	r := rand.New(rand.NewPCG(1, 2))
	m := Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = r.NormFloat64()
	}
	var w Windows
	w.Set(m, rows, window)
	var buf []int32
	for b.Loop() {
		start := time.Now()
		buf = w.StrongestAll(buf[:0], keep)
		blocked := time.Since(start)
		start = time.Now()
		buf = buf[:0]
		for j := range n {
			buf = w.Strongest(buf, j, keep)
		}
		perTarget := time.Since(start)
		b.Logf("%d entities: StrongestAll %v, Strongest per target %v, ratio %.2f", n, blocked, perTarget, float64(blocked)/float64(perTarget))
	}
}
