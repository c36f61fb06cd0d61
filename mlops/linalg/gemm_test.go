package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// operand is an r x c matrix with a stride wider than its columns (as the
// recommender's decoder table has), values in [-1, 1) with some exact
// zeros, and an infinity in its last element when inf is set: a term whose
// left factor is zero must be left out, as gonum leaves it out, or 0 x Inf
// would make a NaN.
func operand(r, c int, inf bool, rng *rand.Rand) blas64.General {
	m := blas64.General{Rows: r, Cols: c, Stride: c + 1, Data: make([]float64, max(r*(c+1), 1))}
	for i := range m.Data {
		if rng.IntN(5) > 0 {
			m.Data[i] = 2*rng.Float64() - 1
		}
	}
	if inf && r*c > 0 {
		m.Data[(r-1)*m.Stride+c-1] = math.Inf(1)
	}
	return m
}

// clone returns a copy of m with its own data.
func clone(m blas64.General) blas64.General {
	m.Data = append([]float64(nil), m.Data...)
	return m
}

// sameBits reports the first element where a and b differ in a bit.
func sameBits(a, b blas64.General) (int, bool) {
	for i := range a.Data {
		if math.Float64bits(a.Data[i]) != math.Float64bits(b.Data[i]) {
			return i, false
		}
	}
	return 0, true
}

// shape is a product's m x n result and inner size k.
type shape struct{ m, n, k int }

// shapes cross gonum's 64-blocks and its threshold for going parallel
// (four blocks of the result), the tiles' edges, and inner sizes past 64:
// the GAT's nodes x features x heads*out and the recommender's users x
// items x code size among them.
var shapes = []shape{
	{1, 1, 1}, {200, 16, 4}, {200, 16, 80}, {30, 16, 16}, {1000, 16, 256}, {64, 64, 130},
	{129, 129, 65}, {3, 5, 200}, {65, 193, 7}, {130, 400, 70}, {3, 1000, 200}, {32, 400, 100}, {7, 9, 0},
}

// product runs f on fresh operands of s under tA and tB into a copy of c.
func product(f func(tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General),
	tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) blas64.General {
	c = clone(c)
	f(tA, tB, alpha, a, b, beta, c)
	return c
}

// operands returns op(a), op(b) and c for s, with an infinity in b.
func operands(s shape, tA, tB blas.Transpose, rng *rand.Rand) (a, b, c blas64.General) {
	a, b = operand(s.m, s.k, false, rng), operand(s.k, s.n, true, rng)
	if tA == blas.Trans {
		a = operand(s.k, s.m, false, rng)
	}
	if tB == blas.Trans {
		b = operand(s.n, s.k, true, rng)
	}
	return a, b, operand(s.m, s.n, false, rng)
}

// forEach calls f for every transpose, shape and alpha, beta pair.
func forEach(t *testing.T, f func(t *testing.T, tA, tB blas.Transpose, alpha, beta float64, s shape)) {
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, s := range shapes {
				for _, ab := range [][2]float64{{1, 0}, {0.5, 2}, {1, 1}} {
					t.Run(fmt.Sprintf("%c%c/%dx%dx%d/%g,%g", tA, tB, s.m, s.n, s.k, ab[0], ab[1]), func(t *testing.T) {
						f(t, tA, tB, ab[0], ab[1], s)
					})
				}
			}
		}
	}
}

// TestGemmAsGonumMatchesGonum checks GemmAsGonum against blas64.Gemm to the
// bit, on both sides of gonum's split into 64-blocks, where a product with
// b transposed sums otherwise.
func TestGemmAsGonumMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	forEach(t, func(t *testing.T, tA, tB blas.Transpose, alpha, beta float64, s shape) {
		a, b, c := operands(s, tA, tB, rng)
		want := product(blas64.Gemm, tA, tB, alpha, a, b, beta, c)
		if i, ok := sameBits(product(linalg.GemmAsGonum, tA, tB, alpha, a, b, beta, c), want); !ok {
			t.Errorf("element %d differs from gonum's", i)
		}
	})
}

// TestGemmSumsAsGonumSerially checks Gemm to the bit against gonum
// computing each element alone (a 1 x 1 product, which gonum always
// computes serially): one dot product over the whole inner dimension.
func TestGemmSumsAsGonumSerially(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	forEach(t, func(t *testing.T, tA, tB blas.Transpose, alpha, beta float64, s shape) {
		a, b, c := operands(s, tA, tB, rng)
		want := clone(c)
		if s.k == 0 { // no element has a term: gonum only scales c
			want = product(blas64.Gemm, tA, tB, alpha, a, b, beta, c)
		}
		for i := range s.m * min(s.k, 1) {
			for j := range s.n {
				ai, bj := row(a, tA, i, s.k), column(b, tB, j, s.k)
				blas64.Gemm(tA, tB, alpha, ai, bj, beta, blas64.General{Rows: 1, Cols: 1, Stride: 1, Data: want.Data[i*want.Stride+j:]})
			}
		}
		if i, ok := sameBits(product(linalg.Gemm, tA, tB, alpha, a, b, beta, c), want); !ok {
			t.Errorf("element %d differs from gonum's serial sum", i)
		}
	})
}

// row returns the matrix whose op(.) under t is row i of op(a), with k
// columns.
func row(a blas64.General, t blas.Transpose, i, k int) blas64.General {
	if t == blas.NoTrans {
		return blas64.General{Rows: 1, Cols: k, Stride: max(a.Stride, k), Data: a.Data[i*a.Stride:]}
	}
	return blas64.General{Rows: k, Cols: 1, Stride: a.Stride, Data: a.Data[i:]}
}

// column returns the matrix whose op(.) under t is column j of op(b), with
// k rows.
func column(b blas64.General, t blas.Transpose, j, k int) blas64.General {
	if t == blas.NoTrans {
		return blas64.General{Rows: k, Cols: 1, Stride: b.Stride, Data: b.Data[j:]}
	}
	return blas64.General{Rows: 1, Cols: k, Stride: max(b.Stride, k), Data: b.Data[j*b.Stride:]}
}

// TestGemmStaysOnItsGoroutine checks that the products gonum would spread
// over goroutines allocate nothing: gonum's parallel path makes a channel
// and a goroutine per block, its serial path neither.
func TestGemmStaysOnItsGoroutine(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	s := shape{300, 400, 100}
	a, b, c := operands(s, blas.NoTrans, blas.Trans, rng)
	if n := testing.AllocsPerRun(3, func() { blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, c) }); n == 0 {
		t.Fatalf("gonum's parallel product allocated nothing: the check cannot tell")
	}
	for name, f := range map[string]func(blas.Transpose, blas.Transpose, float64, blas64.General, blas64.General, float64, blas64.General){
		"Gemm": linalg.Gemm, "GemmAsGonum": linalg.GemmAsGonum,
	} {
		if n := testing.AllocsPerRun(3, func() { f(blas.NoTrans, blas.Trans, 1, a, b, 0, c) }); n != 0 {
			t.Errorf("%s allocated %v times a product", name, n)
		}
	}
}
