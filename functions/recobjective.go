//go:build duckdb_arrow

package functions

import (
	"fmt"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// rankingDefaults sets the options of a ranking objective that the call
// left out to its defaults (recommender.DefaultObjectiveConfig).
func rankingDefaults(a args, cfg *recommender.Config) {
	def := recommender.DefaultObjectiveConfig(cfg.Objective)
	for name, set := range map[string]func(){
		"hidden": func() { cfg.Hidden = def.Hidden }, "epochs": func() { cfg.Epochs = def.Epochs },
		"lr": func() { cfg.LR = def.LR }, "l2": func() { cfg.L2 = def.L2 }, "batch_size": func() { cfg.BatchSize = def.BatchSize },
		"activation": func() { cfg.Activation = def.Activation }, "negatives": func() { cfg.Negatives = def.Negatives },
	} {
		if !a.explicit(name) {
			set()
		}
	}
}

// checkObjective reports options that the objective does not take:
// dropout and negatives belong to the ranking objectives ('ranking' and
// 'ranking_vae'), anneal_cap to 'ranking_vae' alone, and implicit data
// (implicit := true) has interactions, not ratings, so it needs a ranking
// objective and takes neither rating := nor relevant :=. Every failure is
// 22023, before anything is read or registered.
func checkObjective(a args) error {
	objective := a.text("objective")
	ranking := recommender.IsRanking(objective)
	for _, name := range []string{"dropout", "negatives"} {
		if a.explicit(name) && !ranking {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s applies to objective := 'ranking' or 'ranking_vae' only, and the objective is %s",
				trainRecommenderName, name, quote(objective)).WithHint("Add objective := 'ranking', or leave out %s :=.", name)
		}
	}
	if a.explicit("anneal_cap") && objective != recommender.RankingVAE {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: anneal_cap applies to objective := 'ranking_vae' only, and the objective is %s",
			trainRecommenderName, quote(objective)).WithHint("Add objective := 'ranking_vae', or leave out anneal_cap :=.")
	}
	if !a.bool("implicit") {
		return nil
	}
	switch {
	case !ranking:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: implicit := true needs objective := 'ranking' or 'ranking_vae': interactions have no ratings to predict",
			trainRecommenderName).WithHint("Add objective := 'ranking'.")
	case a.explicit("rating"):
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: implicit := true reads no rating column, but rating := %s names one",
			trainRecommenderName, quote(a.text("rating"))).WithHint("Leave out rating := for implicit data, or implicit := true to use the ratings.")
	case a.explicit("relevant"):
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: implicit := true makes every interaction relevant; relevant := %g has no ratings to apply to",
			trainRecommenderName, a.float("relevant")).WithHint("Leave out relevant :=.")
	}
	return nil
}

// losses is the epoch's losses as its NOTICE tells them: the RMSEs, or
// for the ranking objective the training loss (see recommender.Epoch).
func (j *recJob) losses(e *recommender.Epoch) string {
	if recommender.IsRanking(j.cfg.Objective) {
		return fmt.Sprintf("train_loss %.4f", e.TrainLoss)
	}
	return fmt.Sprintf("train_rmse %.4f test_rmse %.4f", e.TrainRMSE, e.TestRMSE)
}
