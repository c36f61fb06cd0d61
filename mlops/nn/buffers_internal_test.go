package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gemmOperand is an r x c matrix of values in [-1, 1) with some exact
// zeros, and an infinity when inf is set: a zero left factor must leave
// out its term, as gonum leaves it out, or 0 x Inf would make a NaN.
func gemmOperand(r, c int, inf bool, rng *rand.Rand) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			if rng.IntN(5) > 0 {
				d.Set(i, j, 2*rng.Float64()-1)
			}
		}
	}
	if inf {
		d.Set(r-1, c-1, math.Inf(1))
	}
	return d
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := range ar {
		for j := range ac {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// TestMulMatchesGonum checks that the layer's products equal gonum's
// mat.Dense.Mul to the bit on the shapes a GAT layer multiplies (nodes x
// features by features x heads*out, and the gradients' products), on
// both sides of gonum's split into 64-blocks (which changes how a
// product with b transposed sums), with inner sizes past 64, and into a
// receiver that held another product.
func TestMulMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, s := range []struct{ m, k, n int }{
		{200, 4, 16}, {200, 16, 16}, {200, 16, 1}, {30, 16, 16}, {200, 80, 16}, {1000, 256, 16}, {64, 130, 64},
		{129, 65, 129}, {3, 200, 5}, {1, 1, 1},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d", s.m, s.k, s.n), func(t *testing.T) {
			for _, inf := range []bool{false, true} {
				var want mat.Dense
				a, b := gemmOperand(s.m, s.k, false, rng), gemmOperand(s.k, s.n, inf, rng)
				want.Mul(a, b)
				if got := mulInto(gemmOperand(s.m, s.n, false, rng), a, b); !sameBits(got, &want) {
					t.Errorf("a b (inf %v) differs from gonum's", inf)
				}
				at := mat.DenseCopyOf(a.T())
				if got := mulTransAInto(nil, at, b); !sameBits(got, &want) {
					t.Errorf("a^T b (inf %v) differs from gonum's", inf)
				}
				var wantT mat.Dense
				bt := gemmOperand(s.n, s.k, inf, rng)
				wantT.Mul(a, bt.T())
				if got := mulTransBInto(gemmOperand(s.m, s.n, false, rng), a, bt); !sameBits(got, &wantT) {
					t.Errorf("a b^T (inf %v) differs from gonum's", inf)
				}
			}
		})
	}
}
