package recommender_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/recommender"
)

// smallConfig trains quickly on the low-rank data.
func smallConfig() recommender.Config {
	cfg := recommender.DefaultConfig()
	cfg.Hidden, cfg.Epochs, cfg.LR, cfg.BatchSize, cfg.L2 = []int{32, 8, 32}, 6, 0.005, 16, 1e-4
	return cfg
}

// curve trains and returns the model and each epoch's report.
func curve(t *testing.T, cfg recommender.Config, train, test recommender.Ratings) (*recommender.Model, []recommender.Epoch) {
	t.Helper()
	var epochs []recommender.Epoch
	m, err := recommender.Train(context.Background(), cfg, train, test, func(e recommender.Epoch) error {
		epochs = append(epochs, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, epochs
}

func TestSameSeedSameWeights(t *testing.T) {
	train, test := lowRank(2, 300, 120, 3, 0.2, 0.3)
	for _, workers := range []int{1, 2} {
		cfg := smallConfig()
		cfg.Workers = workers
		a, _ := curve(t, cfg, train, test)
		b, _ := curve(t, cfg, train, test)
		if !reflect.DeepEqual(a.Weights, b.Weights) {
			t.Errorf("%d workers: two runs with the same seed differ", workers)
		}
		cfg.Seed++
		c, _ := curve(t, cfg, train, test)
		if reflect.DeepEqual(a.Weights, c.Weights) {
			t.Errorf("%d workers: another seed gave the same weights", workers)
		}
	}
}

// TestWorkersAgree checks that splitting every batch among workers
// changes the training only through the order of floating-point sums.
func TestWorkersAgree(t *testing.T) {
	train, test := lowRank(3, 300, 120, 3, 0.2, 0.3)
	cfg := smallConfig()
	_, one := curve(t, cfg, train, test)
	for _, workers := range []int{2, 3} {
		cfg.Workers = workers
		_, many := curve(t, cfg, train, test)
		sameCurve(t, fmt.Sprintf("%d workers", workers), many, one)
	}
}

// TestStepAhead checks that the rows a worker steps while another is still
// computing its share change nothing: with the last worker slowed down,
// the others step rows ahead, and the curve stays the one worker's.
func TestStepAhead(t *testing.T) {
	train, test := lowRank(6, 300, 120, 3, 0.2, 0.3)
	cfg := smallConfig()
	_, one := curve(t, cfg, train, test)
	for _, workers := range []int{2, 3} {
		cfg.Workers = workers
		var many []recommender.Epoch
		_, ahead, err := recommender.TrainSkewed(cfg, train, test, 200*time.Microsecond, func(e recommender.Epoch) error {
			many = append(many, e)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if ahead == 0 {
			t.Errorf("%d workers, the last slowed down: no row was stepped ahead", workers)
		}
		sameCurve(t, fmt.Sprintf("%d workers stepping ahead", workers), many, one)
	}
}

// TestWorkerTimes checks that each epoch tells where every worker's time
// went, and that the parts fit in the epoch (give or take the moments
// between rank 0's clock reading and the end of its evaluation).
func TestWorkerTimes(t *testing.T) {
	train, test := lowRank(5, 300, 120, 3, 0.2, 0.3)
	cfg := smallConfig()
	cfg.Workers = 3
	_, epochs := curve(t, cfg, train, test)
	var before time.Duration
	for _, e := range epochs {
		if len(e.Workers) != cfg.Workers {
			t.Fatalf("epoch %d: %d worker times, want %d", e.Epoch, len(e.Workers), cfg.Workers)
		}
		for rank, w := range e.Workers {
			total := w.Gradient + w.Reduce + w.Step + w.Barrier + w.Evaluate
			if w.Gradient <= 0 || w.Step <= 0 || w.Evaluate <= 0 || total > e.Elapsed-before+5*time.Millisecond {
				t.Errorf("epoch %d, rank %d: %s, %v in all; the epoch took %v", e.Epoch, rank, w, total, e.Elapsed-before)
			}
		}
		before = e.Elapsed
	}
}

// sameCurve fails t unless every epoch's train and test RMSE in got is
// want's to a relative 1e-9, the order of floating-point sums aside.
func sameCurve(t *testing.T, label string, got, want []recommender.Epoch) {
	t.Helper()
	for i, e := range got {
		for _, pair := range [][2]float64{{e.TrainRMSE, want[i].TrainRMSE}, {e.TestRMSE, want[i].TestRMSE}} {
			if rel := math.Abs(pair[0]-pair[1]) / pair[1]; !(rel <= 1e-9) {
				t.Errorf("%s, epoch %d: RMSE %.15g, one worker %.15g (relative difference %.2g)",
					label, e.Epoch, pair[0], pair[1], rel)
			}
		}
	}
}

func TestResume(t *testing.T) {
	train, test := lowRank(4, 200, 80, 3, 0.2, 0.3)
	cfg := smallConfig()
	cfg.Epochs = 4
	var snapshot *recommender.Model
	if _, err := recommender.Train(context.Background(), cfg, train, test, func(e recommender.Epoch) error {
		if e.Epoch == 2 {
			snapshot = e.Snapshot()
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var numbers []int
	if _, err := recommender.TrainFrom(context.Background(), cfg, train, test, recommender.Start{Model: snapshot, Epoch: 2},
		func(e recommender.Epoch) error { numbers = append(numbers, e.Epoch); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(numbers, []int{3, 4}) {
		t.Errorf("resumed epochs %v, want [3 4]", numbers)
	}
	cfg.Hidden = []int{16}
	if _, err := recommender.TrainFrom(context.Background(), cfg, train, test, recommender.Start{Model: snapshot, Epoch: 2}, nil); err == nil {
		t.Error("resumed a model of another architecture")
	}
}

func TestReportErrorStopsTraining(t *testing.T) {
	train, test := lowRank(5, 100, 50, 2, 0.3, 0.3)
	stop := errors.New("stop")
	for _, workers := range []int{1, 2} {
		cfg := smallConfig()
		cfg.Workers = workers
		calls := 0
		_, err := recommender.Train(context.Background(), cfg, train, test, func(e recommender.Epoch) error {
			calls++
			return stop
		})
		if !errors.Is(err, stop) || calls != 1 {
			t.Errorf("%d workers: error %v after %d reports, want stop after 1", workers, err, calls)
		}
	}
}

func TestCancel(t *testing.T) {
	train, test := lowRank(5, 100, 50, 2, 0.3, 0.3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := smallConfig()
	cfg.Workers = 2
	if _, err := recommender.Train(ctx, cfg, train, test, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

func TestModelRoundTrip(t *testing.T) {
	train, test := lowRank(6, 100, 60, 2, 0.3, 0.3)
	m, _ := curve(t, smallConfig(), train, test)
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := recommender.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	items, vals := train.Row(7)
	want, got := make([]float64, m.Items), make([]float64, m.Items)
	m.Scores(items, vals, want)
	back.Scores(items, vals, got)
	if !reflect.DeepEqual(got, want) {
		t.Error("the unmarshalled model scores otherwise")
	}
	if back.ItemIDs.Len() != train.Items || back.ItemIDs.At(5) != train.ItemIDs.At(5) {
		t.Error("the item ids did not survive")
	}
}

// TestArtifactSizedOnce checks that an artifact is encoded into one
// buffer of its exact size: a buffer grown while the weights go in holds
// two copies of hundreds of megabytes at MovieLens-25M scale. The ids
// make the model's JSON header long, as the 25M shape's do.
func TestArtifactSizedOnce(t *testing.T) {
	train, test := lowRank(6, 3000, 400, 2, 0.05, 0.3)
	m, _ := curve(t, smallConfig(), train, test)
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != cap(data) {
		t.Errorf("a model of %d bytes was encoded into a buffer of %d", len(data), cap(data))
	}
	art, err := recommender.AppendArtifact(nil, []byte(`{"epoch":1}`), m, train, test)
	if err != nil {
		t.Fatal(err)
	}
	if len(art) != cap(art) {
		t.Errorf("an artifact of %d bytes was encoded into a buffer of %d", len(art), cap(art))
	}
	if size, _ := m.EncodedSize(); size < 1<<16 {
		t.Errorf("the model's encoding is %d bytes, too short to show a header beyond the old 64 KiB allowance", size)
	}
}

func TestRecommend(t *testing.T) {
	train, test := lowRank(7, 100, 60, 2, 0.3, 0.3)
	m, _ := curve(t, smallConfig(), train, test)
	items, vals := train.Row(3)
	scores := make([]float64, m.Items)
	m.Scores(items, vals, scores)
	for _, s := range scores {
		if s < m.Min || s > m.Max {
			t.Fatalf("score %v outside the rating scale [%v, %v]", s, m.Min, m.Max)
		}
	}
	top := m.Recommend(items, vals, 5, true)
	if len(top) != 5 {
		t.Fatalf("%d recommendations, want 5", len(top))
	}
	seen := map[int]bool{}
	for _, j := range items {
		seen[int(j)] = true
	}
	for k, r := range top {
		if seen[r.Item] || r.Score != scores[r.Item] || k > 0 && r.Score > top[k-1].Score {
			t.Errorf("recommendation %d: %+v (seen %v, score %v)", k, r, seen[r.Item], scores[r.Item])
		}
		for j, s := range scores {
			if !seen[j] && s > r.Score && !containsItem(top[:k], j) {
				t.Errorf("item %d (score %v) is missing before %+v", j, s, r)
			}
		}
	}
}

func containsItem(rs []recommender.Scored, j int) bool {
	for _, r := range rs {
		if r.Item == j {
			return true
		}
	}
	return false
}

// TestDecodeDamaged checks that every truncation of a model's and of
// ratings' encodings, and a flipped magic number, fail without panicking.
func TestDecodeDamaged(t *testing.T) {
	train, test := lowRank(5, 30, 20, 2, 0.3, 0.3)
	m, _ := curve(t, smallConfig(), train, test)
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := train.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if back, err := recommender.UnmarshalRatings(rs, train.UserIDs, train.ItemIDs); err != nil || !reflect.DeepEqual(back.Item, train.Item) {
		t.Fatalf("ratings round trip: %v", err)
	}
	for n := 0; n < len(data); n += 1 + n/16 {
		if _, err := recommender.Unmarshal(data[:n]); err == nil {
			t.Fatalf("a model cut to %d of %d bytes decoded", n, len(data))
		}
	}
	for n := 0; n < len(rs); n += 1 + n/16 {
		if _, err := recommender.UnmarshalRatings(rs[:n], train.UserIDs, train.ItemIDs); err == nil {
			t.Fatalf("ratings cut to %d of %d bytes decoded", n, len(rs))
		}
	}
	bad := append([]byte("XRM1"), data[4:]...)
	if _, err := recommender.Unmarshal(bad); err == nil {
		t.Error("a model with another magic number decoded")
	}
	if _, err := recommender.Unmarshal(append(data, 0)); err == nil {
		t.Error("a model with a byte after its weights decoded")
	}
}
