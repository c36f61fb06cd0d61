package classifier

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"

	"github.com/mallard/mallard/mlops/linalg"
)

// conv is a 3 x 3 convolution with stride 1 and one pixel of zero padding,
// so the output has the input's height and width and f channels. The
// weights are a 9c x f matrix, row (ky·3+kx)·c+ch for the filter tap at
// (ky, kx) on input channel ch, followed by f biases. A batch is computed
// as its im2col matrix (one row per output pixel, 9c columns) times the
// weights: one serial product.
type conv struct {
	in       shape
	f        int
	first    bool
	cols     []float64 // im2col of the last forward's input
	y, dcols []float64
	dx       []float64
}

func newConv(in shape, filters int, first bool) *conv {
	return &conv{in: in, f: filters, first: first}
}

func (c *conv) out() shape  { return shape{c.in.H, c.in.W, c.f} }
func (c *conv) params() int { return 9*c.in.C*c.f + c.f }
func (c *conv) k() int      { return 9 * c.in.C }

func (c *conv) init(w []float64, rng *rand.Rand) { uniformInit(w, c.k(), rng) }

func (c *conv) forward(w, x []float64, b *batch) []float64 {
	rows := b.n * c.in.H * c.in.W
	c.cols = grow(c.cols, rows*c.k())
	c.im2col(x, b.n)
	c.y = grow(c.y, rows*c.f)
	kf := c.k() * c.f
	linalg.Gemm(blas.NoTrans, blas.NoTrans, 1, mat(rows, c.k(), c.cols), mat(c.k(), c.f, w[:kf]), 0, mat(rows, c.f, c.y))
	addBias(c.y, w[kf:kf+c.f])
	return c.y
}

func (c *conv) backward(w, g, dy []float64, b *batch) []float64 {
	rows := b.n * c.in.H * c.in.W
	kf := c.k() * c.f
	linalg.Gemm(blas.Trans, blas.NoTrans, 1, mat(rows, c.k(), c.cols), mat(rows, c.f, dy), 1, mat(c.k(), c.f, g[:kf]))
	addColumnSums(g[kf:kf+c.f], dy)
	if c.first {
		return nil
	}
	c.dcols = grow(c.dcols, rows*c.k())
	linalg.Gemm(blas.NoTrans, blas.Trans, 1, mat(rows, c.f, dy), mat(c.k(), c.f, w[:kf]), 0, mat(rows, c.k(), c.dcols))
	c.dx = grow(c.dx, b.n*c.in.size())
	clear(c.dx)
	c.col2im(c.dx, b.n)
	return c.dx
}

// im2col fills c.cols from the n images in x: the row of output pixel
// (i, y, x) holds its 3 x 3 neighbourhood, zeros outside the image.
func (c *conv) im2col(x []float64, n int) {
	H, W, C := c.in.H, c.in.W, c.in.C
	row := 0
	for i := range n {
		img := x[i*H*W*C : (i+1)*H*W*C]
		for y := range H {
			for xx := range W {
				dst := c.cols[row*9*C : (row+1)*9*C]
				for t := range 9 {
					sy, sx := y+t/3-1, xx+t%3-1
					part := dst[t*C : (t+1)*C]
					if sy < 0 || sy >= H || sx < 0 || sx >= W {
						clear(part)
						continue
					}
					copy(part, img[(sy*W+sx)*C:(sy*W+sx+1)*C])
				}
				row++
			}
		}
	}
}

// col2im adds each row of c.dcols back onto the input pixels it was read
// from, the transpose of im2col.
func (c *conv) col2im(dx []float64, n int) {
	H, W, C := c.in.H, c.in.W, c.in.C
	row := 0
	for i := range n {
		img := dx[i*H*W*C : (i+1)*H*W*C]
		for y := range H {
			for xx := range W {
				src := c.dcols[row*9*C : (row+1)*9*C]
				for t := range 9 {
					sy, sx := y+t/3-1, xx+t%3-1
					if sy < 0 || sy >= H || sx < 0 || sx >= W {
						continue
					}
					linalg.Axpy(img[(sy*W+sx)*C:(sy*W+sx+1)*C], 1, src[t*C:(t+1)*C])
				}
				row++
			}
		}
	}
}
