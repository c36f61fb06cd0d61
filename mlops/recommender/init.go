package recommender

import (
	"math"
	"math/rand/v2"

	"github.com/mallard/mallard/mlops/nn"
)

// initWeights draws the weights of a new network: the encoder table, the
// inner layer weights and the shared output weights from the Glorot
// uniform distribution U(-a, a), a = √(6/(in+out)), as nn.NewDense does,
// in that order. The hidden biases and the decoder table (the items'
// offsets) start at zero, and the shared output bias where the output
// activation gives target, the mean training target. So every item starts
// near the mean rating rather than mid-scale, a distance the biases of a
// user-based autoencoder, which sees each item in few batches an epoch,
// would take much of training to travel. For the ranking objective the
// shared row adds the same to every logit, which the softmax cancels: it
// starts at zero, and the items' offsets are drawn instead, so that an
// item's decoder row is its whole output weights. The same rng state gives
// the same weights. The tables are advised to huge pages before anything
// touches them (see training.pages).
func initWeights(cfg Config, items int, target float64, rng *rand.Rand) (enc, dense, dec []float64) {
	ne, nd, nc := shapes(cfg, items)
	enc, dense, dec = make([]float64, ne), make([]float64, nd), make([]float64, nc)
	hugePages(enc, true)
	hugePages(dec, true)
	glorot(rng, enc, items, cfg.Hidden[0])
	inner, head, _ := denseLayout(cfg.Hidden, cfg.vae())
	for _, l := range inner {
		glorot(rng, dense[l.w:l.b], l.in, l.out)
	}
	hL := cfg.Hidden[len(cfg.Hidden)-1]
	if head != 0 {
		glorot(rng, dense[head:head+hL*hL], hL, hL)
	}
	if cfg.ranking() {
		limit := math.Sqrt(6 / float64(hL+items))
		for j := range items {
			for k := range hL {
				dec[j*(hL+1)+k] = limit * (2*rng.Float64() - 1)
			}
		}
		return enc, dense, dec
	}
	glorot(rng, dense[nd-1-hL:nd-1], hL, items)
	_, out := cfg.activations()
	dense[nd-1] = preimage(out, target) // the shared output bias
	return enc, dense, dec
}

// preimage returns an x at which a(x) is y, for y in [0, 1]; y is kept
// off the asymptotes of sigmoid and tanh.
func preimage(a nn.Activation, y float64) float64 {
	switch a {
	case nn.Sigmoid:
		y = min(max(y, 1e-3), 1-1e-3)
		return math.Log(y / (1 - y))
	case nn.Tanh:
		return math.Atanh(min(max(y, 0), 1-1e-3))
	}
	return y // the others are the identity on [0, 1]
}

// glorot fills w with U(-a, a) draws for a layer of in inputs and out outputs.
func glorot(rng *rand.Rand, w []float64, in, out int) {
	limit := math.Sqrt(6 / float64(in+out))
	for i := range w {
		w[i] = limit * (2*rng.Float64() - 1)
	}
}
