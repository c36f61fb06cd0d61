package classifier

import (
	"math/rand/v2"
)

// relu is max(0, x) elementwise; its gradient at 0 is 0.
type relu struct {
	s     shape
	y, dx []float64
}

func (r *relu) out() shape                     { return r.s }
func (r *relu) params() int                    { return 0 }
func (r *relu) init(w []float64, g *rand.Rand) {}

func (r *relu) forward(_, x []float64, b *batch) []float64 {
	r.y = grow(r.y, len(x))
	for i, v := range x {
		r.y[i] = max(v, 0)
	}
	return r.y
}

func (r *relu) backward(_, _, dy []float64, b *batch) []float64 {
	r.dx = grow(r.dx, len(dy))
	for i, v := range dy {
		if r.y[i] > 0 {
			r.dx[i] = v
		} else {
			r.dx[i] = 0
		}
	}
	return r.dx
}

// dropout zeroes each value with probability p in training and scales the
// others by 1/(1−p) (inverted dropout); outside training it is the
// identity. An example's mask depends only on the seed, the epoch, the
// layer and the example's index in the training set, so it is the same
// whichever worker computes the example.
type dropout struct {
	s     shape
	p     float64
	index int // the layer's position in its network
	mask  []float64
	y, dx []float64
}

func (d *dropout) out() shape                     { return d.s }
func (d *dropout) params() int                    { return 0 }
func (d *dropout) init(w []float64, g *rand.Rand) {}

func (d *dropout) forward(_, x []float64, b *batch) []float64 {
	if !b.train || d.p == 0 {
		d.mask = d.mask[:0]
		return x
	}
	d.mask = grow(d.mask, len(x))
	d.y = grow(d.y, len(x))
	size, keep := d.s.size(), 1/(1-d.p)
	for i := range b.n {
		rng := rand.New(rand.NewPCG(b.seed^uint64(d.index)<<56^uint64(b.epoch)<<40, b.ids[i]))
		for j := i * size; j < (i+1)*size; j++ {
			d.mask[j] = 0
			if rng.Float64() >= d.p {
				d.mask[j] = keep
			}
			d.y[j] = x[j] * d.mask[j]
		}
	}
	return d.y
}

func (d *dropout) backward(_, _, dy []float64, b *batch) []float64 {
	if len(d.mask) == 0 {
		return dy
	}
	d.dx = grow(d.dx, len(dy))
	for i, v := range dy {
		d.dx[i] = v * d.mask[i]
	}
	return d.dx
}
