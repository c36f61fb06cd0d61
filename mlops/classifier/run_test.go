package classifier_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

func TestRunSpecAndEpoch(t *testing.T) {
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.LR = 4, 0.01
	r := &classifier.Run{Fn: "train_classifier", Options: opts, Rows: 10, DataFingerprint: "abc",
		Record: training.Spec{Kind: "classifier", Name: "c"}}
	if s := r.Spec(); s.Rows != 10 || s.Epochs != 4 || s.Name != "c" || r.Fingerprint() != "abc" {
		t.Errorf("Spec = %+v, fingerprint %q", s, r.Fingerprint())
	}
	e := classifier.Epoch{Epoch: 2, TrainLoss: 0.5, ValLoss: math.NaN(), ValAccuracy: math.NaN(), ValRMSE: 1.5, Elapsed: 1500 * time.Microsecond}
	got := r.TrainingEpoch(e)
	if got.Selection != 0.5 || got.ElapsedMS != 1.5 || got.Metrics[1] != nil || got.Notice != "train_loss 0.5000 val_loss NaN val_accuracy NaN" {
		t.Errorf("a classifier's epoch without validation rows: %+v", got)
	}
	r.Regression = true
	if got := r.TrainingEpoch(e); got.Metrics[2] != 1.5 || !strings.HasSuffix(got.Notice, "val_rmse 1.5000") {
		t.Errorf("a regressor's epoch: %+v", got)
	}
	if err := r.Diverged(sqlstate.New(sqlstate.DataException, "diverged")); err.Hint != "Lower lr (it is 0.01)." {
		t.Errorf("divergence hint %q", err.Hint)
	}
}

func TestFitError(t *testing.T) {
	err := classifier.FitError("train_classifier", errors.New("batch_size must be positive"))
	if sqlstate.CodeOf(err) != sqlstate.InvalidParameterValue || !strings.HasPrefix(err.Error(), "train_classifier: batch_size must be positive") {
		t.Errorf("a core error: %v (%s)", err, sqlstate.CodeOf(err))
	}
	for _, pass := range []error{context.Canceled, sqlstate.New(sqlstate.QueryCanceled, "canceled")} {
		if got := classifier.FitError("train_classifier", pass); got != pass {
			t.Errorf("%v became %v; want it as it was", pass, got)
		}
	}
}
