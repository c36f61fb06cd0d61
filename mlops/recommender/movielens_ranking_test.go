package recommender_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/recommender"
)

// studyRun trains cfg on train, reporting its epochs to report when not
// nil, and returns the model's and popularity's
// Recall@10 and NDCG@10 on test.
func studyRun(t *testing.T, cfg recommender.Config, train, test recommender.Ratings, report func(recommender.Epoch) error) (model, pop recommender.Metrics) {
	t.Helper()
	m, err := recommender.Train(context.Background(), cfg, train, test, report)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := recommender.Evaluate(context.Background(), m, train, test, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ms {
		if x.Method == recommender.Popularity {
			pop = x
		}
	}
	return ms[0], pop
}

// TestRankingStudy trains the configurations REC_STUDY lists, separated
// by semicolons (fields objective, epochs, lr, dropout, hidden, negatives,
// l2, batch size and optionally seed, separated by spaces, hidden widths
// by x, and optionally activation and, for ranking_vae, the KL term's
// anneal cap) on the validation split, a further 1/9 of the
// training ratings (seed 2), or with REC_STUDY_TEST=1 on the test split;
// the test split is that of seed REC_STUDY_SPLIT (1 by default, as in the
// accuracy tests; train_recommender splits with its seed, 0 by default).
// REC_STUDY_EASE=1 measures EASE on the same split first;
// REC_STUDY_CURVE=n logs every user's Recall@10 and NDCG@10 every n epochs.
func TestRankingStudy(t *testing.T) {
	spec := os.Getenv("REC_STUDY")
	if spec == "" {
		t.Skip("REC_STUDY lists the configurations to study")
	}
	seed := uint64(1)
	if s := os.Getenv("REC_STUDY_SPLIT"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	train, test := recommender.Split(movielens(t), 0.1, seed)
	if os.Getenv("REC_STUDY_TEST") != "1" {
		train, test = recommender.Split(train, 1.0/9, 2)
	}
	if os.Getenv("REC_STUDY_EASE") == "1" {
		e, err := recommender.FitEASE(context.Background(), train, 4, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, err := recommender.RatingsProtocol(train, test, 4, 0, 0).MeasureEASE(e)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("ease (λ %v) recall %.4f ndcg %.4f recall_at_20 %.4f ndcg_at_100 %.4f", e.Lambda, m.RecallAt10, m.NDCGAt10, m.RecallAt20, m.NDCGAt100)
	}
	for _, line := range strings.Split(spec, ";") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		cfg := recommender.DefaultConfig()
		cfg.Objective = f[0]
		cfg.Epochs, _ = strconv.Atoi(f[1])
		cfg.LR, _ = strconv.ParseFloat(f[2], 64)
		cfg.Dropout, _ = strconv.ParseFloat(f[3], 64)
		cfg.Hidden = nil
		for _, h := range strings.Split(f[4], "x") {
			n, _ := strconv.Atoi(h)
			cfg.Hidden = append(cfg.Hidden, n)
		}
		cfg.Negatives, _ = strconv.Atoi(f[5])
		cfg.L2, _ = strconv.ParseFloat(f[6], 64)
		cfg.BatchSize, _ = strconv.Atoi(f[7])
		if len(f) > 8 {
			cfg.Seed, _ = strconv.ParseUint(f[8], 10, 64)
		}
		if len(f) > 9 {
			cfg.Activation = f[9]
		}
		if len(f) > 10 {
			cfg.AnnealCap, _ = strconv.ParseFloat(f[10], 64)
		}

		cfg.Workers, cfg.RankUsers = 1, 1
		var report func(recommender.Epoch) error
		if every, _ := strconv.Atoi(os.Getenv("REC_STUDY_CURVE")); every > 0 {
			cfg.RankUsers = 0
			report = func(e recommender.Epoch) error {
				if e.Epoch%every == 0 {
					t.Logf("  epoch %d: recall %.4f ndcg %.4f", e.Epoch, e.RecallAt10, e.NDCGAt10)
				}
				return nil
			}
		}
		start := time.Now()
		m, p := studyRun(t, cfg, train, test, report)
		t.Logf("%-50s recall %.4f ndcg %.4f recall_at_20 %.4f ndcg_at_100 %.4f (popularity %.4f %.4f) %.0fs", line, m.RecallAt10, m.NDCGAt10,
			m.RecallAt20, m.NDCGAt100, p.RecallAt10, p.NDCGAt10, time.Since(start).Seconds())
	}
}

// TestMovieLensSmallRanking is the ranking goal: on the seeded random
// 90/10 split of MovieLens small, DefaultRankingConfig's Recall@10 and
// NDCG@10 are at least 1.5 times popularity's.
func TestMovieLensSmallRanking(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 40 epochs on MovieLens small")
	}
	train, test := recommender.Split(movielens(t), 0.1, 1)
	cfg := recommender.DefaultRankingConfig()
	cfg.Workers, cfg.RankUsers = 2, 50 // the epochs' ranking metrics are not checked; Evaluate ranks every user
	model, pop := studyRun(t, cfg, train, test, nil)
	t.Logf("ranking    recall_at_10 %.4f ndcg_at_10 %.4f", model.RecallAt10, model.NDCGAt10)
	t.Logf("popularity recall_at_10 %.4f ndcg_at_10 %.4f", pop.RecallAt10, pop.NDCGAt10)
	if !(model.RecallAt10 >= 1.5*pop.RecallAt10) || !(model.NDCGAt10 >= 1.5*pop.NDCGAt10) {
		t.Errorf("the ranking model (recall_at_10 %.4f, ndcg_at_10 %.4f) is not 1.5 times popularity (%.4f, %.4f)",
			model.RecallAt10, model.NDCGAt10, pop.RecallAt10, pop.NDCGAt10)
	}
}

// TestMovieLensSmallRankingVAE is the goal of the ranking objective to
// pick: on the seeded 90/10 split of MovieLens small (seed 1),
// DefaultRankingVAEConfig (there the exact softmax) has Recall@10 and
// NDCG@10 at least 1.5 times popularity's and at least 0.95 times EASE's.
// It reaches 0.2550 and 0.2230, 1.004 and 0.967 of EASE's 0.2539 and
// 0.2306 and 2.2 times popularity's 0.1155 and 0.0984 (with model seed 1
// and one worker, 0.2584 and 0.2268).
func TestMovieLensSmallRankingVAE(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 40 epochs on MovieLens small and fits EASE")
	}
	train, test := recommender.Split(movielens(t), 0.1, 1)
	cfg := recommender.DefaultRankingVAEConfig()
	cfg.Workers, cfg.RankUsers = 2, 50
	model, pop := studyRun(t, cfg, train, test, nil)
	e, err := recommender.FitEASE(context.Background(), train, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	ease, err := recommender.RatingsProtocol(train, test, 4, 0, 0).MeasureEASE(e)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ranking_vae recall_at_10 %.4f ndcg_at_10 %.4f (negatives %d)", model.RecallAt10, model.NDCGAt10, cfg.ForItems(train.Items).Negatives)
	t.Logf("ease        recall_at_10 %.4f ndcg_at_10 %.4f", ease.RecallAt10, ease.NDCGAt10)
	t.Logf("popularity  recall_at_10 %.4f ndcg_at_10 %.4f", pop.RecallAt10, pop.NDCGAt10)
	if !(model.RecallAt10 >= 1.5*pop.RecallAt10) || !(model.NDCGAt10 >= 1.5*pop.NDCGAt10) {
		t.Errorf("ranking_vae (recall_at_10 %.4f, ndcg_at_10 %.4f) is not 1.5 times popularity (%.4f, %.4f)",
			model.RecallAt10, model.NDCGAt10, pop.RecallAt10, pop.NDCGAt10)
	}
	if !(model.RecallAt10 >= 0.95*ease.RecallAt10) || !(model.NDCGAt10 >= 0.95*ease.NDCGAt10) {
		t.Errorf("ranking_vae (recall_at_10 %.4f, ndcg_at_10 %.4f) is below 0.95 of EASE's (%.4f, %.4f)",
			model.RecallAt10, model.NDCGAt10, ease.RecallAt10, ease.NDCGAt10)
	}
}
