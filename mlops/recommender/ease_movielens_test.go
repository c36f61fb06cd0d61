package recommender_test

import (
	"context"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/recommender"
)

// TestMovieLensSmallProtocols measures the model, EASE and the baselines
// on MovieLens small under both protocols: the seeded 90/10 per-rating
// split of the accuracy test, and the strong-generalisation protocol
// holding out DefaultHoldOut of the users, whose ratings the model and
// EASE are not fitted to (under the per-rating protocol EASE is fitted
// to every training rating, as serving fits it). EASE must rank at least
// 1.5 times as well as popularity under both; the model's figures are
// logged, for the README.
func TestMovieLensSmallProtocols(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on MovieLens small and fits EASE twice")
	}
	ctx := context.Background()
	train, test := recommender.Split(movielens(t), 0.1, 1)
	cfg := movielensConfig()
	held := recommender.HeldOutUsers(train, test, recommender.DefaultHoldOut, cfg.Seed)
	model, err := recommender.Train(ctx, cfg, recommender.WithoutUsers(train, held), test, nil)
	if err != nil {
		t.Fatal(err)
	}
	protocols := []struct {
		name string
		p    recommender.Protocol
	}{
		{"ratings", recommender.RatingsProtocol(train, test, cfg.Relevant, 0, cfg.Seed)},
		{"users", recommender.UsersProtocol(train, test, held, cfg.Relevant, 0, cfg.Seed)},
	}
	for _, pr := range protocols {
		ms, err := pr.p.Measure(ctx, model)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		e, err := recommender.FitEASE(ctx, pr.p.Base(), cfg.Relevant, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: EASE fitted in %v: λ %v, %d columns; %d users ranked", pr.name, time.Since(start).Round(time.Millisecond),
			e.Lambda, e.Columns(), pr.p.Users())
		ease, err := pr.p.MeasureEASE(e)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, ease)
		for _, m := range ms {
			t.Logf("%s: %-10s test_rmse %.4f recall_at_10 %.4f ndcg_at_10 %.4f recall_at_20 %.4f ndcg_at_100 %.4f",
				pr.name, m.Method, m.RMSE, m.RecallAt10, m.NDCGAt10, m.RecallAt20, m.NDCGAt100)
		}
		pop := ms[2]
		if pop.Method != recommender.Popularity || ease.RecallAt10 < 1.5*pop.RecallAt10 || ease.NDCGAt10 < 1.5*pop.NDCGAt10 ||
			ease.RecallAt20 < 1.5*pop.RecallAt20 || ease.NDCGAt100 < 1.5*pop.NDCGAt100 {
			t.Errorf("%s: EASE %+v is not 1.5 times popularity %+v", pr.name, ease, pop)
		}
	}
}

// BenchmarkFitEASEMovieLens fits EASE to the accuracy test's training
// ratings of MovieLens small: the choice of λ and the final fit.
func BenchmarkFitEASEMovieLens(b *testing.B) {
	train, _ := recommender.Split(movielens(b), 0.1, 1)
	cfg := recommender.DefaultConfig()
	for b.Loop() {
		if _, err := recommender.FitEASE(context.Background(), train, cfg.Relevant, cfg.Seed); err != nil {
			b.Fatal(err)
		}
	}
}
