package classifier

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
