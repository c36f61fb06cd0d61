package linalg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/linalg"
)

// TestAdamDenseTwoStepsByHand checks two steps of one weight against the
// values worked by hand.
func TestAdamDenseTwoStepsByHand(t *testing.T) {
	// Step 1: m = 0.05, v = 0.00025, m̂ = 0.5, √v̂ = 0.5, w = 1 - 0.1·0.5/(0.5+1e-8).
	// Step 2: m = 0.045 - 0.1 = -0.055, v = 0.00024975 + 0.001 = 0.00124975,
	// w = 0.9 - (0.1/0.19)·m / (√v/√(1-0.999²) + 1e-8).
	want := []float64{1 - 0.05/(0.5+1e-8), 0.9366103542405654}
	w, m, v := []float64{1}, []float64{0}, []float64{0}
	for i, g := range []float64{0.5, -1} {
		step := linalg.NewAdam(0.1).At(i + 1)
		step.Dense(w, m, v, []float64{g})
		if math.Abs(w[0]-want[i]) > 1e-12 {
			t.Errorf("step %d: w = %.17g, want %.17g", i+1, w[0], want[i])
		}
	}
}

// TestAdamSparseRoundsMoments checks that Sparse keeps its moments as
// float32, each step reading the rounded moments of the last, and steps
// by the float64 moments it computed: over three steps it agrees to the
// bit with the update written out, and a weight with a zero gradient
// still moves by its momentum.
func TestAdamSparseRoundsMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const n = 7
	w, want := make([]float64, n), make([]float64, n)
	mv, m, v := linalg.SparseMoments(n), make([]float32, n), make([]float32, n)
	opt := linalg.Adam{LR: 0.01, Beta1: 0.8, Beta2: 0.99, Eps: 1e-6}
	for t0 := 1; t0 <= 3; t0++ {
		g := make([]float64, n)
		for i := range g[1:] {
			g[i+1] = rng.NormFloat64()
		}
		step := opt.At(t0)
		step.Sparse(w, mv, g)
		size := opt.LR / (1 - math.Pow(opt.Beta1, float64(t0)))
		inv := 1 / math.Sqrt(1-math.Pow(opt.Beta2, float64(t0)))
		for i, gi := range g {
			mi := opt.Beta1*float64(m[i]) + (1-opt.Beta1)*gi
			vi := opt.Beta2*float64(v[i]) + (1-opt.Beta2)*gi*gi
			m[i], v[i] = float32(mi), float32(vi)
			want[i] -= size * mi / (math.Sqrt(vi)*inv + opt.Eps)
		}
		for i := range w {
			if math.Float64bits(w[i]) != math.Float64bits(want[i]) || mv[2*i] != m[i] || mv[2*i+1] != v[i] {
				t.Fatalf("step %d, weight %d: w %v, m %v, v %v; want %v, %v, %v", t0, i, w[i], mv[2*i], mv[2*i+1], want[i], m[i], v[i])
			}
		}
	}
	if w[0] != 0 {
		t.Errorf("a weight never given a gradient moved to %v", w[0])
	}
}

// TestAdamFormsAgree checks that the dense and the sparse forms are one
// optimiser: over 20 steps of the same gradients their weights stay
// within the float32 rounding of the sparse form's moments.
func TestAdamFormsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	const n = 50
	dense, sparse := make([]float64, n), make([]float64, n)
	m, v, mv := make([]float64, n), make([]float64, n), linalg.SparseMoments(n)
	opt := linalg.NewAdam(0.001)
	for t0 := 1; t0 <= 20; t0++ {
		g := make([]float64, n)
		for i := range g {
			g[i] = rng.NormFloat64()
		}
		step := opt.At(t0)
		step.Dense(dense, m, v, g)
		step.Sparse(sparse, mv, g)
	}
	for i := range dense {
		if d := math.Abs(dense[i] - sparse[i]); d > 1e-6*math.Abs(dense[i]) || math.Abs(dense[i]) < 1e-4 {
			t.Errorf("weight %d: dense %v, sparse %v", i, dense[i], sparse[i])
		}
	}
}

// BenchmarkAdamSparse measures one sparse Adam step of a table row of 301
// weights (an encoder row of 150 and a decoder row of 151), reporting ns
// per weight: "hot" steps the same row, which stays in cache; "cold" steps
// rows of a table of 60,000 in random order, as a batch's rows are, which
// the caches cannot hold.
func BenchmarkAdamSparse(b *testing.B) {
	const width = 301
	for _, bench := range []struct {
		name string
		rows int
	}{{"hot", 1}, {"cold", 60000}} {
		b.Run(bench.name, func(b *testing.B) {
			step := linalg.NewAdam(0.001).At(1)
			w := make([]float64, width*bench.rows)
			mv := linalg.SparseMoments(width * bench.rows)
			g := make([]float64, width*bench.rows)
			for i := range g {
				g[i] = rand.Float64() - 0.5
			}
			order := rand.Perm(bench.rows)
			i := 0
			for b.Loop() {
				j := order[i%bench.rows]
				i++
				step.Sparse(w[j*width:(j+1)*width], mv[2*j*width:2*(j+1)*width], g[j*width:(j+1)*width])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*width), "ns/weight")
		})
	}
}
