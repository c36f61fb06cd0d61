package classifier

import (
	"math"
	"math/rand/v2"
)

// shape is the size of one example's activations, channel-last: h x w x c.
// A vector of c features has h = w = 1.
type shape struct{ H, W, C int }

// size is the number of values in one example.
func (s shape) size() int { return s.H * s.W * s.C }

// batch is what a forward pass knows of the examples it computes.
type batch struct {
	n     int      // number of examples
	train bool     // dropout is applied only in training
	ids   []uint64 // each example's index in the training set (training only)
	seed  uint64   // the training seed
	epoch int
}

// layer is one stage of a network, holding the buffers of one worker.
// forward reads the weights w (params() of them) and x, n rows of the
// layer's input, and returns its output, which stays valid until the next
// forward. backward adds the gradient of the loss with respect to w into
// g, given dy, the gradient with respect to the output of the last
// forward, and returns the gradient with respect to its input (nil when
// the layer was built as the first of its network).
type layer interface {
	out() shape
	params() int
	init(w []float64, rng *rand.Rand)
	forward(w, x []float64, b *batch) []float64
	backward(w, g, dy []float64, b *batch) []float64
}

// grow returns a slice of n values, reusing buf's storage when it can.
// The values are not cleared.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// uniformInit sets w to values uniform in ±1/√fanIn, the initialisation
// PyTorch gives its linear and convolutional layers.
func uniformInit(w []float64, fanIn int, rng *rand.Rand) {
	bound := 1 / math.Sqrt(float64(fanIn))
	for i := range w {
		w[i] = (2*rng.Float64() - 1) * bound
	}
}

// addBias adds b to every row of y (rows of len(b) values).
func addBias(y, b []float64) {
	for i := 0; i < len(y); i += len(b) {
		row := y[i : i+len(b)]
		for j, v := range b {
			row[j] += v
		}
	}
}

// addColumnSums adds the sum of each column of dy (rows of len(g) values)
// into g, summing rows in order.
func addColumnSums(g, dy []float64) {
	for i := 0; i < len(dy); i += len(g) {
		row := dy[i : i+len(g)]
		for j, v := range row {
			g[j] += v
		}
	}
}
