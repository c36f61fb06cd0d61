package classifier

import (
	"cmp"
	"context"
	"slices"
)

// Predict returns one row per row of t: a classifier's probability of
// each of m.Classes, or a regressor's prediction (one value), in the
// target's units. t must have the columns the model was trained on.
func (m *Model) Predict(t *Table) ([][]float64, error) {
	x, err := m.Prep.features(t)
	if err != nil {
		return nil, err
	}
	n, err := buildNet(m.Arch, m.Prep.input())
	if err != nil {
		return nil, err
	}
	dim, k := n.in.size(), n.outputs()
	rows := len(x) / max(dim, 1)
	out := make([][]float64, rows)
	flat := make([]float64, rows*k)
	for start := 0; start < rows; start += evalChunk {
		end := min(start+evalChunk, rows)
		y := n.forward(m.Weights, x[start*dim:end*dim], &batch{n: end - start})
		if m.Regression {
			for i, v := range y {
				flat[start+i] = m.TargetMean + m.TargetStd*v
			}
			continue
		}
		softmax(y, k, flat[start*k:end*k])
	}
	for r := range out {
		out[r] = flat[r*k : (r+1)*k : (r+1)*k]
	}
	return out, nil
}

// PredictSource is Predict on the rows of src, read evalChunk rows at a
// time: the same figures as Predict's on a table of those rows, holding
// one chunk of rows at a time besides the result.
func (m *Model) PredictSource(ctx context.Context, src Source) ([][]float64, error) {
	n := src.Len()
	out := make([][]float64, 0, n)
	idx := make([]int, 0, evalChunk)
	for start := 0; start < n; start += evalChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		idx = idx[:0]
		for r := start; r < min(start+evalChunk, n); r++ {
			idx = append(idx, r)
		}
		t, err := src.Table(idx)
		if err != nil {
			return nil, err
		}
		p, err := m.Predict(t)
		if err != nil {
			return nil, err
		}
		out = append(out, p...)
	}
	return out, nil
}

// TopClasses is the most probable class of probs (the first on ties) and
// the classes to report: with k above 0 the k most probable, most
// probable first (the first class on ties); else every class in order.
func TopClasses(probs []float64, k int) (top int, order []int) {
	order = make([]int, len(probs))
	for i := range order {
		order[i] = i
	}
	if k > 0 {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(probs[b], probs[a]) })
		order = order[:min(k, len(order))]
	}
	for i, v := range probs {
		if v > probs[top] {
			top = i
		}
	}
	return top, order
}
