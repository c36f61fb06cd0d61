package classifier

import (
	"slices"

	lifecycle "github.com/mallard/mallard/mlops/training"
)

// Recorded are a method's test figures as the registry records them:
// null where there was nothing to measure (no test rows, a class never
// predicted).
type Recorded struct {
	Method    string              `json:"method"`
	Rows      int                 `json:"rows"`
	Accuracy  *float64            `json:"accuracy,omitempty"`
	MacroF1   *float64            `json:"macro_f1,omitempty"`
	LogLoss   *float64            `json:"log_loss,omitempty"`
	Precision map[string]*float64 `json:"precision,omitempty"`
	Recall    map[string]*float64 `json:"recall,omitempty"`
	RMSE      *float64            `json:"rmse,omitempty"`
	MAE       *float64            `json:"mae,omitempty"`
	R2        *float64            `json:"r2,omitempty"`
	// ValLoss is the lowest validation loss of a trained method; Served
	// marks the method the version stores and predict serves.
	ValLoss *float64 `json:"val_loss,omitempty"`
	Served  bool     `json:"served,omitempty"`
	// Confusion is a classifier's confusion matrix on the test rows.
	Confusion *Confusion `json:"confusion,omitempty"`
}

// Confusion is a confusion matrix: Counts[i][j] test rows of class
// Classes[i] were predicted as Classes[j].
type Confusion struct {
	Classes []string `json:"classes"`
	Counts  [][]int  `json:"counts"`
}

// Baseline methods, besides the linear model.
const (
	MethodMajority = "majority"
	MethodMean     = "mean"
)

// RecordClassification is a classifier's figures c as recorded.
func RecordClassification(method string, c Classification) Recorded {
	out := Recorded{Method: method, Rows: c.Rows, Accuracy: lifecycle.Finite(c.Accuracy), MacroF1: lifecycle.Finite(c.MacroF1), LogLoss: lifecycle.Finite(c.LogLoss),
		Precision: map[string]*float64{}, Recall: map[string]*float64{}, Confusion: &Confusion{Classes: c.Labels, Counts: c.Confusion}}
	for k, v := range c.Precision {
		out.Precision[k] = lifecycle.Finite(v)
	}
	for k, v := range c.Recall {
		out.Recall[k] = lifecycle.Finite(v)
	}
	return out
}

// RecordRegression is a regressor's figures r as recorded.
func RecordRegression(method string, r Regression) Recorded {
	return Recorded{Method: method, Rows: r.Rows, RMSE: lifecycle.Finite(r.RMSE), MAE: lifecycle.Finite(r.MAE), R2: lifecycle.Finite(r.R2)}
}

// TrivialRegression is the mean baseline's figures on the test targets:
// every row predicted as the mean of the training targets.
func TrivialRegression(train, test []float64) Recorded {
	var mean float64
	for _, v := range train {
		mean += v / float64(len(train))
	}
	if len(test) == 0 {
		return Recorded{Method: MethodMean}
	}
	pred := make([]float64, len(test))
	for i := range pred {
		pred[i] = mean
	}
	return RecordRegression(MethodMean, Regress(pred, test))
}

// TrivialClassification is the majority baseline's figures on the test
// labels: every row predicted as the training labels' class shares over
// classes.
func TrivialClassification(train, test, classes []string) Recorded {
	if len(test) == 0 {
		return Recorded{Method: MethodMajority}
	}
	prior := Prior(train, classes)
	probs := make([][]float64, len(test))
	for i := range probs {
		probs[i] = prior
	}
	return RecordClassification(MethodMajority, Classify(probs, test, classes))
}

// ServedLoss is the test loss deployment compares for the method of
// metrics marked Served: its log loss, else its RMSE, else val, its
// validation loss; 0 where it has none.
func ServedLoss(metrics []Recorded, val *float64) float64 {
	i := slices.IndexFunc(metrics, func(m Recorded) bool { return m.Served })
	switch {
	case metrics[i].LogLoss != nil:
		return *metrics[i].LogLoss
	case metrics[i].RMSE != nil:
		return *metrics[i].RMSE
	case val != nil:
		return *val
	}
	return 0
}
