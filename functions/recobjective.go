//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// rankingDefaults sets the options of a ranking objective that the call
// left out to its defaults (recommender.DefaultObjectiveConfig).
func rankingDefaults(o *trainRecArgs, cfg *recommender.Config) {
	def := recommender.DefaultObjectiveConfig(cfg.Objective)
	unless(&o.given, &o.Hidden, &cfg.Hidden, def.Hidden)
	unless(&o.given, &o.Epochs, &cfg.Epochs, def.Epochs)
	unless(&o.given, &o.LR, &cfg.LR, def.LR)
	unless(&o.given, &o.L2, &cfg.L2, def.L2)
	unless(&o.given, &o.BatchSize, &cfg.BatchSize, def.BatchSize)
	unless(&o.given, &o.Activation, &cfg.Activation, def.Activation)
	unless(&o.given, &o.Negatives, &cfg.Negatives, def.Negatives)
}

// unless sets *dst to v unless the call gave the argument bound to field.
func unless[V any](g *given, field, dst *V, v V) {
	if !g.set[field] {
		*dst = v
	}
}

// checkObjective reports options that the objective does not take:
// dropout and negatives belong to the ranking objectives ('ranking' and
// 'ranking_vae'), anneal_cap to 'ranking_vae' alone, and implicit data
// (implicit := true) has interactions, not ratings, so it needs a ranking
// objective and takes neither rating := nor relevant :=. Every failure is
// 22023, before anything is read or registered.
func checkObjective(o *trainRecArgs) error {
	objective := o.Objective
	ranking := recommender.IsRanking(objective)
	for _, field := range []any{&o.Dropout, &o.Negatives} {
		if name := o.name(field); o.explicit(field) && !ranking {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s applies to objective := 'ranking' or 'ranking_vae' only, and the objective is %s",
				trainRecommenderName, name, quote(objective)).WithHint("Add objective := 'ranking', or leave out %s :=.", name)
		}
	}
	if o.explicit(&o.AnnealCap) && objective != recommender.RankingVAE {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: anneal_cap applies to objective := 'ranking_vae' only, and the objective is %s",
			trainRecommenderName, quote(objective)).WithHint("Add objective := 'ranking_vae', or leave out anneal_cap :=.")
	}
	if !o.Implicit {
		return nil
	}
	switch {
	case !ranking:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: implicit := true needs objective := 'ranking' or 'ranking_vae': interactions have no ratings to predict",
			trainRecommenderName).WithHint("Add objective := 'ranking'.")
	case o.explicit(&o.Rating):
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: implicit := true reads no rating column, but rating := %s names one",
			trainRecommenderName, quote(o.Rating)).WithHint("Leave out rating := for implicit data, or implicit := true to use the ratings.")
	case o.explicit(&o.Relevant):
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: implicit := true makes every interaction relevant; relevant := %g has no ratings to apply to",
			trainRecommenderName, o.Relevant).WithHint("Leave out relevant :=.")
	}
	return nil
}
