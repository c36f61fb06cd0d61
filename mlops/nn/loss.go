package nn

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// MSE returns the mean squared error between pred and target and its
// gradient with respect to pred.
//
// Without a mask the loss is the mean over all n x c cells,
// L = Σ (pred-target)² / N with N = n·c, and the gradient is
// dL/dpred = 2(pred-target)/N, as PyTorch's mse_loss with reduction "mean".
// A mask, if given, must have one entry per row; only rows whose entry is
// true count, N is their number times c, and the gradient is zero on the
// other rows (the usual train mask of node-level tasks). When no row
// counts, the loss and the gradient are zero.
//
// Targets must be finite: MSE does not skip NaN targets, and one would make
// the loss and its row of the gradient NaN. Callers mask such rows out or
// impute them first. MSE panics if pred and target differ in shape or the
// mask has the wrong length.
func MSE(pred, target *mat.Dense, mask ...bool) (loss float64, grad *mat.Dense) {
	r, c := pred.Dims()
	if tr, tc := target.Dims(); tr != r || tc != c {
		panic(fmt.Sprintf("nn: MSE: pred is %d x %d, target is %d x %d", r, c, tr, tc))
	}
	if len(mask) != 0 && len(mask) != r {
		panic(fmt.Sprintf("nn: MSE: mask has %d entries for %d rows", len(mask), r))
	}
	rows := r
	if len(mask) != 0 {
		rows = 0
		for _, m := range mask {
			if m {
				rows++
			}
		}
	}
	grad = mat.NewDense(r, c, nil)
	if rows == 0 {
		return 0, grad
	}
	n := float64(rows * c)
	var sum float64
	for i := range r {
		if len(mask) != 0 && !mask[i] {
			continue
		}
		p, t, g := pred.RawRowView(i), target.RawRowView(i), grad.RawRowView(i)
		for j := range c {
			d := p[j] - t[j]
			sum += d * d
			g[j] = 2 * d / n
		}
	}
	return sum / n, grad
}
