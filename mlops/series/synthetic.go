package series

import (
	"math"
	"math/rand/v2"
)

// Synthetic is an n-entity, t-step matrix for benchmarks and tests, the
// same for the same seed: each entity mixes three AR(1) factors (0.95,
// 0.8 and 0.5) and a sine of each given period, with loadings of its own,
// plus an AR(1) noise of its own, so the windows' correlations vary from
// sample to sample but carry structure.
func Synthetic(n, t int, seed uint64, periods ...float64) Matrix {
	rng := rand.New(rand.NewPCG(seed, 0))
	phi := []float64{0.95, 0.8, 0.5}
	k := len(phi) + len(periods)
	load := make([]float64, n*k)
	for i := range load {
		load[i] = rng.NormFloat64()
	}
	factors, noise := make([]float64, k), make([]float64, n)
	m := Matrix{T: t, N: n, Values: make([]float64, t*n)}
	for step := range t {
		for f, p := range phi {
			factors[f] = p*factors[f] + rng.NormFloat64()
		}
		for f, p := range periods {
			factors[len(phi)+f] = math.Sin(2 * math.Pi * (float64(step)/p + float64(f)/7))
		}
		row := m.Row(step)
		for i := range n {
			noise[i] = 0.7*noise[i] + 0.5*rng.NormFloat64()
			v := noise[i]
			for f, x := range factors {
				v += load[i*k+f] * x
			}
			row[i] = v / 3
		}
	}
	return m
}
