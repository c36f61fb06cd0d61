package classifier_test

import (
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

func TestTrivialBaselines(t *testing.T) {
	mean := classifier.TrivialRegression([]float64{1, 2, 3}, []float64{2, 4})
	if mean.Method != classifier.MethodMean || mean.Rows != 2 || mean.RMSE == nil || math.Abs(*mean.RMSE-math.Sqrt(2)) > 1e-12 {
		t.Errorf("mean of 1, 2, 3 on 2, 4: %+v; want RMSE √2", mean)
	}
	major := classifier.TrivialClassification([]string{"a", "a", "b"}, []string{"a", "b"}, []string{"a", "b"})
	if major.Method != classifier.MethodMajority || major.Accuracy == nil || *major.Accuracy != 0.5 || major.Confusion == nil {
		t.Errorf("majority a on a, b: %+v; want accuracy 0.5 and a confusion matrix", major)
	}
	if none := classifier.TrivialClassification([]string{"a"}, nil, []string{"a"}); none.Rows != 0 || none.Accuracy != nil {
		t.Errorf("no test rows: %+v; want nothing measured", none)
	}
}

func TestServedLoss(t *testing.T) {
	logLoss, rmse, val := 0.3, 0.7, 0.9
	metrics := []classifier.Recorded{{Method: "mlp", LogLoss: &logLoss}, {Method: "linear", RMSE: &rmse, Served: true}}
	if got := classifier.ServedLoss(metrics, &val); got != rmse {
		t.Errorf("served linear: %g; want its RMSE %g", got, rmse)
	}
	metrics[1] = classifier.Recorded{Method: "linear", Served: true}
	if got := classifier.ServedLoss(metrics, &val); got != val {
		t.Errorf("served linear without test figures: %g; want the validation loss %g", got, val)
	}
	if got := classifier.ServedLoss(metrics, nil); got != 0 {
		t.Errorf("nothing measured: %g; want 0", got)
	}
}

func TestTopClasses(t *testing.T) {
	probs := []float64{0.2, 0.5, 0.1, 0.5}
	if top, order := classifier.TopClasses(probs, 0); top != 1 || len(order) != 4 || order[3] != 3 {
		t.Errorf("k 0: top %d, order %v; want 1 and every class in order", top, order)
	}
	if top, order := classifier.TopClasses(probs, 3); top != 1 || len(order) != 3 || order[0] != 1 || order[1] != 3 || order[2] != 0 {
		t.Errorf("k 3: top %d, order %v; want 1 and [1 3 0]", top, order)
	}
}
