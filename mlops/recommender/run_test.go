package recommender_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// runOf is a run on builtRatings as train_recommender makes one.
func runOf(t *testing.T, objective string) *recommender.Run {
	t.Helper()
	train, test := builtRatings(t, 0)
	cfg := recommender.DefaultObjectiveConfig(objective)
	cfg.Hidden, cfg.Epochs = []int{4}, 3
	return &recommender.Run{Fn: "train_recommender", Config: cfg, TrainRatings: train, TestRatings: test,
		Record: training.Spec{Kind: "recommender", Name: "m", Deploy: "auto"}}
}

// The run records its ratings' sizes and epochs with what it was given.
func TestRunSpec(t *testing.T) {
	r := runOf(t, recommender.Rating)
	s := r.Spec()
	if s.Name != "m" || s.Deploy != "auto" || s.Epochs != 3 || s.Rows != int64(r.TrainRatings.Len()+r.TestRatings.Len()) || s.Entities != 4 {
		t.Errorf("Spec = %+v", s)
	}
	if r.Fingerprint() != recommender.Fingerprint(r.TrainRatings, r.TestRatings) {
		t.Error("the run's fingerprint is not its ratings'")
	}
}

// A resumed run refuses ratings of other items than its checkpoint's.
func TestRunPrepareRefusesOtherItems(t *testing.T) {
	r := runOf(t, recommender.Rating)
	if err := r.Prepare(context.Background()); err != nil {
		t.Fatalf("a new run: %v", err)
	}
	model, err := recommender.InitialModel(r.Config, r.TrainRatings)
	if err != nil {
		t.Fatal(err)
	}
	r.From = &recommender.Resumed{Ref: mlops.Ref{Name: "m", Version: 1}, Model: model, Epoch: 1}
	if err := r.Prepare(context.Background()); err != nil {
		t.Fatalf("resumed on the same items: %v", err)
	}
	other, err := recommender.InitialModel(r.Config, r.TrainRatings)
	if err != nil {
		t.Fatal(err)
	}
	other.ItemIDs = &recommender.IDs{}
	for _, id := range []int64{10, 99, 12} {
		other.ItemIDs.Add(recommender.Int(id))
	}
	r.From.Model = other
	err = r.Prepare(context.Background())
	var e *sqlstate.Error
	if sqlstate.CodeOf(err) != sqlstate.InvalidParameterValue || !strings.Contains(err.Error(), "items differ from those m@1") {
		t.Fatalf("resumed on other items: %v; want 22023", err)
	}
	if e = err.(*sqlstate.Error); !strings.Contains(e.Detail, "the first to differ is item 11, where it had 99") {
		t.Errorf("detail %q does not name the first item that differs", e.Detail)
	}
}

// An epoch reaches the lifecycle with the objective's losses.
func TestRunTrainingEpoch(t *testing.T) {
	e := &recommender.Epoch{Epoch: 2, TrainRMSE: 0.9, TestRMSE: 1.1, TrainLoss: 5, RecallAt10: 0.25, NDCGAt10: math.NaN()}
	rating := runOf(t, recommender.Rating).TrainingEpoch(e, 12, "; more", nil)
	if rating.Measure != "train_rmse" || rating.Train != 0.9 || rating.Test != 1.1 || rating.Metrics[3] != nil ||
		rating.Notice != "train_rmse 0.9000 test_rmse 1.1000 recall_at_10 0.2500 ndcg_at_10 NaN; more" {
		t.Errorf("rating objective: %+v", rating)
	}
	ranking := runOf(t, recommender.Ranking).TrainingEpoch(e, 12, "", nil)
	if ranking.Measure != "train_loss" || ranking.Train != 5 || !strings.HasPrefix(ranking.Notice, "train_loss 5.0000 ") {
		t.Errorf("ranking objective: %+v", ranking)
	}
	err := runOf(t, recommender.Rating).Diverged(sqlstate.New(sqlstate.DataException, "diverged"))
	if !strings.HasPrefix(err.Hint, "Lower lr") {
		t.Errorf("divergence hint %q", err.Hint)
	}
}
