package classifier

import (
	"context"
	"math"
)

// evalChunk is the number of rows a worker evaluates at a time.
const evalChunk = 256

// evaluate computes the validation figures of an Epoch on d, each worker
// a contiguous share of the rows, summed over workers.
func (w *worker) evaluate(ctx context.Context, d *Data) (Epoch, error) {
	lo, hi := d.Rows*w.rank/w.cfg.Workers, d.Rows*(w.rank+1)/w.cfg.Workers
	sums := make([]float64, 2) // loss, correct rows
	idx := make([]int, 0, evalChunk)
	for start := lo; start < hi; start += evalChunk {
		idx = idx[:0]
		for r := start; r < min(start+evalChunk, hi); r++ {
			idx = append(idx, r)
		}
		b, err := w.gather(d, idx, 0)
		if err != nil {
			return Epoch{}, err
		}
		b.train = false
		out := w.net.forward(w.w, w.xb, b)
		if w.regression {
			sums[0] += squaredError(out, w.targets, 0, nil)
			continue
		}
		loss, correct := softmaxCE(out, w.net.outputs(), w.labels, nil, 0, nil)
		sums[0] += loss
		sums[1] += float64(correct)
	}
	if err := w.coll.AllReduceSum(ctx, w.rank, sums); err != nil {
		return Epoch{}, err
	}
	e := Epoch{ValLoss: math.NaN(), ValAccuracy: math.NaN(), ValRMSE: math.NaN()}
	if d.Rows == 0 {
		return e, nil
	}
	e.ValLoss = sums[0] / float64(d.Rows)
	if w.regression {
		e.ValRMSE = math.Sqrt(e.ValLoss)
	} else {
		e.ValAccuracy = sums[1] / float64(d.Rows)
	}
	return e, nil
}
