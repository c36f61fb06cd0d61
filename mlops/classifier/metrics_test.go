package classifier_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

func TestClassifyByHand(t *testing.T) {
	classes := []string{"a", "b"}
	probs := [][]float64{{0.9, 0.1}, {0.4, 0.6}, {0.7, 0.3}, {0.2, 0.8}}
	labels := []string{"a", "a", "b", "b"}
	c := classifier.Classify(probs, labels, classes)
	// Predicted a, b, a, b: one right of each class.
	if c.Accuracy != 0.5 || c.Rows != 4 {
		t.Errorf("accuracy %g of %d rows, want 0.5 of 4", c.Accuracy, c.Rows)
	}
	if c.Precision["a"] != 0.5 || c.Recall["a"] != 0.5 || c.Precision["b"] != 0.5 || c.Recall["b"] != 0.5 {
		t.Errorf("precision %v recall %v, want 0.5 each", c.Precision, c.Recall)
	}
	if want := [][]int{{1, 1}, {1, 1}}; fmt.Sprint(c.Confusion) != fmt.Sprint(want) || fmt.Sprint(c.Labels) != "[a b]" {
		t.Errorf("confusion %v of %v, want %v", c.Confusion, c.Labels, want)
	}
	if c.MacroF1 != 0.5 {
		t.Errorf("macro F1 %g, want 0.5", c.MacroF1)
	}
	want := -(math.Log(0.9) + math.Log(0.4) + math.Log(0.3) + math.Log(0.8)) / 4
	if math.Abs(c.LogLoss-want) > 1e-15 {
		t.Errorf("log loss %g, want %g", c.LogLoss, want)
	}
}

func TestClassifyUnseenLabel(t *testing.T) {
	c := classifier.Classify([][]float64{{1, 0}}, []string{"z"}, []string{"a", "b"})
	if c.Accuracy != 0 || math.Abs(c.LogLoss-(-math.Log(1e-15))) > 1e-9 {
		t.Errorf("accuracy %g log loss %g, want 0 and ln 1e15", c.Accuracy, c.LogLoss)
	}
	if fmt.Sprint(c.Labels, c.Confusion) != "[a b z] [[0 0 0] [0 0 0] [1 0 0]]" {
		t.Errorf("labels %v confusion %v: want z predicted as a", c.Labels, c.Confusion)
	}
	if !math.IsNaN(c.Precision["z"]) || c.Recall["z"] != 0 || !math.IsNaN(c.Recall["b"]) {
		t.Errorf("precision %v recall %v", c.Precision, c.Recall)
	}
}

func TestRegressByHand(t *testing.T) {
	r := classifier.Regress([]float64{1, 2, 5}, []float64{1, 3, 3})
	if math.Abs(r.RMSE-math.Sqrt(5.0/3)) > 1e-15 || math.Abs(r.MAE-1) > 1e-15 {
		t.Errorf("rmse %g mae %g", r.RMSE, r.MAE)
	}
	// SST around the mean 7/3: 16/9 + 4/9 + 4/9 = 24/9.
	if want := 1 - 5/(24.0/9); math.Abs(r.R2-want) > 1e-12 {
		t.Errorf("R2 %g, want %g", r.R2, want)
	}
	if p := classifier.Prior([]string{"b", "a", "b", "x"}, []string{"a", "b"}); p[0] != 0.25 || p[1] != 0.5 {
		t.Errorf("prior %v", p)
	}
}
