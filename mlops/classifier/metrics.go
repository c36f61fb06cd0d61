package classifier

import (
	"math"
	"slices"
)

// Classification are a classifier's figures on a set of rows. Precision
// and Recall are per class: NaN for a class that was never predicted
// (precision) or never occurs (recall).
type Classification struct {
	Rows      int
	Accuracy  float64
	MacroF1   float64 // the mean over classes of 2PR/(P+R), 0 where P+R is 0 or undefined
	LogLoss   float64 // mean −ln p(true class), p clipped to at least 1e-15
	Precision map[string]float64
	Recall    map[string]float64
	// Labels are the classes followed by the true labels outside them, in
	// order of appearance; Confusion[i][j] counts the rows of true label
	// Labels[i] predicted as Labels[j].
	Labels    []string
	Confusion [][]int
}

// minProbability bounds the probability log loss takes the logarithm of,
// so that one confident mistake costs ln(1e15) ≈ 34.5, not infinity.
const minProbability = 1e-15

// Classify measures predicted class probabilities (one row per label,
// one value per class in classes) against the true labels. The
// prediction of a row is its most probable class, the first on ties; a
// label not among classes is always wrong and has probability 0. Macro F1
// averages over the classes and the labels outside them that occur.
func Classify(probs [][]float64, labels, classes []string) Classification {
	c := Classification{Rows: len(labels), Precision: map[string]float64{}, Recall: map[string]float64{}}
	all := slices.Clone(classes)
	for _, l := range labels {
		if !slices.Contains(all, l) {
			all = append(all, l)
		}
	}
	c.Labels, c.Confusion = all, make([][]int, len(all))
	for i := range all {
		c.Confusion[i] = make([]int, len(all))
	}
	tp, predicted, actual := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for r, label := range labels {
		p := probs[r]
		top := 0
		for j := range p {
			if p[j] > p[top] {
				top = j
			}
		}
		pred := classes[top]
		predicted[pred]++
		actual[label]++
		pTrue := 0.0
		if k := slices.Index(classes, label); k >= 0 {
			pTrue = p[k]
		}
		if pred == label {
			tp[label]++
		}
		c.Confusion[slices.Index(all, label)][top]++
		c.LogLoss -= math.Log(max(pTrue, minProbability))
	}
	n := float64(len(labels))
	var correct, f1 float64
	for _, k := range all {
		correct += tp[k]
		prec, rec := tp[k]/predicted[k], tp[k]/actual[k] // NaN for 0/0
		c.Precision[k], c.Recall[k] = prec, rec
		if prec+rec > 0 {
			f1 += 2 * prec * rec / (prec + rec)
		}
	}
	c.Accuracy, c.LogLoss, c.MacroF1 = correct/n, c.LogLoss/n, f1/float64(len(all))
	return c
}

// Regression are a regressor's figures on a set of rows. R2 is 1 − SSE/SST
// with SST around the rows' own mean (NaN for fewer than two distinct
// targets).
type Regression struct {
	Rows          int
	RMSE, MAE, R2 float64
}

// Regress measures predictions against targets.
func Regress(pred, targets []float64) Regression {
	n := float64(len(targets))
	var mean float64
	for _, y := range targets {
		mean += y / n
	}
	var sse, sae, sst float64
	for i, y := range targets {
		e := pred[i] - y
		sse, sae, sst = sse+e*e, sae+math.Abs(e), sst+(y-mean)*(y-mean)
	}
	r := Regression{Rows: len(targets), RMSE: math.Sqrt(sse / n), MAE: sae / n, R2: math.NaN()}
	if sst > 0 {
		r.R2 = 1 - sse/sst
	}
	return r
}

// Prior is the share of each of classes among labels: the majority-class
// baseline's probabilities.
func Prior(labels, classes []string) []float64 {
	p := make([]float64, len(classes))
	for _, l := range labels {
		if k := slices.Index(classes, l); k >= 0 {
			p[k]++
		}
	}
	for k := range p {
		p[k] /= float64(max(len(labels), 1))
	}
	return p
}
