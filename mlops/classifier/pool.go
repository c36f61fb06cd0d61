package classifier

import (
	"math/rand/v2"
)

// maxPool is 2 x 2 max pooling with stride 2; an odd last row or column
// is dropped. The gradient goes to the first maximum of each window.
type maxPool struct {
	in    shape
	arg   []int32 // for each output value, the input index of its maximum
	y, dx []float64
}

func newMaxPool(in shape) *maxPool { return &maxPool{in: in} }

func (p *maxPool) out() shape                     { return shape{p.in.H / 2, p.in.W / 2, p.in.C} }
func (p *maxPool) params() int                    { return 0 }
func (p *maxPool) init(w []float64, r *rand.Rand) {}

func (p *maxPool) forward(_, x []float64, b *batch) []float64 {
	o := p.out()
	p.y = grow(p.y, b.n*o.size())
	if cap(p.arg) < len(p.y) {
		p.arg = make([]int32, len(p.y))
	}
	p.arg = p.arg[:len(p.y)]
	H, W, C := p.in.H, p.in.W, p.in.C
	k := 0
	for i := range b.n {
		base := i * H * W * C
		for y := range o.H {
			for xx := range o.W {
				for ch := range C {
					start := base + ((2*y)*W+2*xx)*C + ch
					best := start
					for _, off := range [3]int{C, W * C, W*C + C} {
						if x[start+off] > x[best] {
							best = start + off
						}
					}
					p.y[k], p.arg[k] = x[best], int32(best)
					k++
				}
			}
		}
	}
	return p.y
}

func (p *maxPool) backward(_, _, dy []float64, b *batch) []float64 {
	p.dx = grow(p.dx, b.n*p.in.size())
	clear(p.dx)
	for k, v := range dy {
		p.dx[p.arg[k]] += v
	}
	return p.dx
}
