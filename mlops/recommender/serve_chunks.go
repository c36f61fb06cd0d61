package recommender

import (
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// Scoring every item for one user is a matrix-vector product over the
// decoder table, items x (h_L+1) float64 values: 100 MB at MovieLens-25M's
// 62,423 items and 200 hidden units, read once per call, so that one core
// waits on memory for most of it. Serving splits the items into chunks of
// rows scored at once, each chunk's values exactly what one product over
// every item gives (see chunks), and keeps its per-call buffers in a pool.
// Recommend for the ranking objectives reads a float32 copy of the table
// besides (see serve_recommend.go).

// minChunkRows is the fewest items a chunk of scoring has: below it the
// goroutines cost more than they save.
const minChunkRows = 4096

// maxChunks bounds the chunks of one call, so that concurrent calls leave
// cores to one another.
const maxChunks = 8

// chunks calls f on consecutive ranges [lo, hi) covering rows, the c-th
// range's c less than maxChunks, at once when there are several, and
// returns when every call has. Every range but the last starts and ends at a
// multiple of 4, the rows gonum's matrix-vector kernel takes together,
// so that a row's value is the same as in one product over all rows.
func chunks(rows int, f func(c, lo, hi int)) {
	n := min(runtime.GOMAXPROCS(0), maxChunks, rows/minChunkRows)
	if n <= 1 {
		f(0, 0, rows)
		return
	}
	size := (rows/n + 3) &^ 3
	var wg sync.WaitGroup
	for c := range n {
		lo, hi := min(c*size, rows), min((c+1)*size, rows)
		if c == n-1 {
			hi = rows
		}
		wg.Go(func() { f(c, lo, hi) })
	}
	wg.Wait()
}

// scoreBuf returns a buffer of m.Items values, from the model's pool when
// one is there; putScoreBuf gives it back.
func (m *Model) scoreBuf() *[]float64 {
	if p, ok := m.bufs.Get().(*[]float64); ok && len(*p) == m.Items {
		return p
	}
	b := make([]float64, m.Items)
	return &b
}

func (m *Model) putScoreBuf(p *[]float64) { m.bufs.Put(p) }

// outputs sets dst to every item's output for the last hidden activation
// a: its pre-activation for the ranking objective, else its predicted
// rating in the scale s; in chunks (see chunks). For the ranking
// objective it returns the greatest, else 0.
func (n *net) outputs(a []float64, s scale, dst []float64) float64 {
	h := len(a)
	base := n.base(a)
	tops := make([]float64, maxChunks)
	chunks(n.items, func(c, lo, hi int) {
		out := dst[lo:hi]
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: hi - lo, Cols: h, Stride: h + 1, Data: n.dec[lo*(h+1):]},
			blas64.Vector{N: h, Inc: 1, Data: a}, 0, blas64.Vector{N: hi - lo, Inc: 1, Data: out})
		top := math.Inf(-1)
		for i := range out {
			out[i] += n.dec[(lo+i)*(h+1)+h] + base
			if n.ranking {
				top = max(top, out[i])
			} else {
				out[i] = s.out(n.out.Apply(out[i]))
			}
		}
		tops[c] = top
	})
	if !n.ranking {
		return 0
	}
	return floats.Max(tops)
}

// softmaxFrom sets z to its softmax, whose greatest value is top, as
// softmax does, value for value: the exponentials and the scaling in
// chunks, their sum in item order.
func softmaxFrom(z []float64, top float64) {
	sum := normaliser(z, top, z) // the exponentials in place
	chunks(len(z), func(_, lo, hi int) { floats.Scale(1/sum, z[lo:hi]) })
}
