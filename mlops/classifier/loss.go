package classifier

import "math"

// softmaxCE is the softmax cross-entropy of n rows of k logits against
// their labels, each row's loss times its label's weight when weights is
// not nil. It returns the sum of the rows' losses and the number of rows
// whose largest logit is their label's (the first largest on ties), and,
// when d is not nil, sets d to scale times the gradient of the summed
// loss with respect to the logits, weight·(softmax − one-hot).
func softmaxCE(logits []float64, k int, labels []int, weights []float64, scale float64, d []float64) (loss float64, correct int) {
	for i, label := range labels {
		wt := 1.0
		if weights != nil {
			wt = weights[label]
		}
		row := logits[i*k : (i+1)*k]
		top := 0
		for j, v := range row {
			if v > row[top] {
				top = j
			}
		}
		if top == label {
			correct++
		}
		m := row[top]
		var sum float64
		for _, v := range row {
			sum += math.Exp(v - m)
		}
		logSum := m + math.Log(sum)
		loss += wt * (logSum - row[label])
		if d == nil {
			continue
		}
		drow := d[i*k : (i+1)*k]
		s := scale * wt
		for j, v := range row {
			drow[j] = s * math.Exp(v-logSum)
		}
		drow[label] -= s
	}
	return loss, correct
}

// softmax sets each row of k values in p to the softmax of that row of
// logits.
func softmax(logits []float64, k int, p []float64) {
	for i := 0; i < len(logits); i += k {
		row, out := logits[i:i+k], p[i:i+k]
		m := row[0]
		for _, v := range row {
			m = max(m, v)
		}
		var sum float64
		for j, v := range row {
			out[j] = math.Exp(v - m)
			sum += out[j]
		}
		for j := range out {
			out[j] /= sum
		}
	}
}

// squaredError is Σ (pred − target)² over one output per row. When d is
// not nil it sets d to scale times the gradient of that sum, 2(pred −
// target).
func squaredError(pred, targets []float64, scale float64, d []float64) float64 {
	var loss float64
	for i, t := range targets {
		e := pred[i] - t
		loss += e * e
		if d != nil {
			d[i] = scale * 2 * e
		}
	}
	return loss
}
