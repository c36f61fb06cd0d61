package recommender

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// TestGemmMatchesGonum checks the tiled product against gonum's on
// shapes that cross the tile edges, for every transpose, with a stride
// wider than the columns as the decoder table has.
func TestGemmMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	general := func(r, c int) blas64.General {
		m := blas64.General{Rows: r, Cols: c, Stride: c + 1, Data: make([]float64, r*(c+1))}
		for i := range m.Data {
			m.Data[i] = rng.NormFloat64()
		}
		return m
	}
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, s := range [][3]int{{1, 1, 1}, {65, 193, 7}, {130, 400, 70}, {3, 1000, 200}} {
				m, n, k := s[0], s[1], s[2]
				a, b := general(m, k), general(k, n)
				if tA == blas.Trans {
					a = general(k, m)
				}
				if tB == blas.Trans {
					b = general(n, k)
				}
				want, got := general(m, n), general(m, n)
				copy(got.Data, want.Data)
				blas64.Gemm(tA, tB, 0.5, a, b, 2, want)
				gemm(tA, tB, 0.5, a, b, 2, got)
				for i := range want.Data {
					if d := math.Abs(got.Data[i] - want.Data[i]); d > 1e-12*(1+math.Abs(want.Data[i])) {
						t.Fatalf("%c%c %dx%dx%d: element %d is %v, gonum %v", tA, tB, m, n, k, i, got.Data[i], want.Data[i])
					}
				}
			}
		}
	}
}
