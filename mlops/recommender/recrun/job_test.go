package recrun_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/recommender/recrun"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// budget records what a run reserves, and refuses from the refuse'th
// reservation on (never when refuse is 0).
type budget struct {
	what   []string
	refuse int
}

var errRefused = errors.New("refused")

func (b *budget) Reserve(_ context.Context, n int64, what string) (func(), error) {
	b.what = append(b.what, what)
	if b.refuse > 0 && len(b.what) >= b.refuse {
		return nil, errRefused
	}
	return func() {}, nil
}

// ratings are 3 users' ratings of 4 items each.
func ratings(t *testing.T) recommender.Ratings {
	t.Helper()
	b := recommender.NewBuilder(recommender.DuplicatesError)
	for u := range 3 {
		for i := range 4 {
			if err := b.Add(recommender.Int(int64(u)), recommender.Int(int64(i)), float64(1+(u+i)%5)); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func job(t *testing.T, fraction float64) *recrun.Job {
	cfg := recommender.DefaultConfig()
	cfg.Hidden = []int{4}
	all := ratings(t)
	return &recrun.Job{Config: cfg, Name: "m", TestFraction: fraction, Source: "r",
		Read: func(_ context.Context, reserve func(int64) error) (recommender.Ratings, error) {
			if err := reserve(int64(all.Len())); err != nil {
				return recommender.Ratings{}, err
			}
			return all, nil
		}}
}

// ReadRun reserves the ratings before it reads them, then the item
// tables, and records the run's source and parameters.
func TestReadRun(t *testing.T) {
	b := &budget{}
	m, err := job(t, 0.25).ReadRun(context.Background(), training.NewMemory(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.what) != 2 || b.what[0] != "train_recommender's ratings (12)" {
		t.Errorf("reserved %q; want the 12 ratings, then the item tables", b.what)
	}
	spec := m.Spec()
	if spec.Kind != recrun.Kind || spec.Source != "r" || spec.Rows != 12 || spec.Params.(recrun.Params).TestFraction != 0.25 {
		t.Errorf("spec %+v", spec)
	}
	b = &budget{refuse: 1}
	if _, err := job(t, 0.25).ReadRun(context.Background(), training.NewMemory(b)); !errors.Is(err, errRefused) {
		t.Errorf("ReadRun with the ratings refused: %v; want the budget's error", err)
	}
}

// A split that leaves nothing to test on is 22023.
func TestReadRunEmptySide(t *testing.T) {
	_, err := job(t, 0.01).ReadRun(context.Background(), training.NewMemory(&budget{}))
	var e *sqlstate.Error
	if !errors.As(err, &e) || e.Code != sqlstate.InvalidParameterValue {
		t.Errorf("test_fraction 0.01 of 12 ratings: %v; want 22023", err)
	}
}

// LoadStart refuses what it cannot decode as 22P06, and a resumed run
// must train more epochs than its start had.
func TestLoadStart(t *testing.T) {
	ref := mlops.Ref{Name: "m", Version: 1}
	for _, tc := range []struct{ hyper, artifact string }{{"{", ""}, {"{}", "not an artifact"}} {
		_, _, err := recrun.LoadStart(ref, "fp", tc.hyper, []byte(tc.artifact))
		var e *sqlstate.Error
		if !errors.As(err, &e) || e.Code != sqlstate.DataCorrupted {
			t.Errorf("LoadStart(%q, %q): %v; want 22P06", tc.hyper, tc.artifact, err)
		}
	}
	s := &recrun.Start{Ref: ref, Epoch: 5}
	if err := s.CheckEpochs(5); err == nil {
		t.Error("CheckEpochs(5) after 5 epochs: no error")
	}
	if err := s.CheckEpochs(6); err != nil {
		t.Errorf("CheckEpochs(6) after 5 epochs: %v", err)
	}
}
