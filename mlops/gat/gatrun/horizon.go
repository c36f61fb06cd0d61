package gatrun

import (
	"context"
	"fmt"
	"time"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// resolveHorizon sets the horizon validation scores (gat.Config.Horizon),
// then settles the strategy (see resolveStrategy):
// the one given, which must be at most the validation rows (1 is accepted
// without validation); a resumed run's own; else 1, which the horizon
// study chose over one season on validation at the season's horizon
// (docs/forecasting-horizon.md). A run across ranks validates one step
// ahead: its processes do not hold every row.
func (j *Job) resolveHorizon(m series.Matrix, across bool) error {
	_, val, _, err := j.Config.Samples(m)
	if err != nil {
		return err
	}
	h := j.Config.Horizon
	if j.HorizonGiven {
		most := max(1, len(val))
		if across {
			most = 1
		}
		if h > most {
			err := sqlstate.New(sqlstate.InvalidParameterValue, "%s: horizon := %d is out of range; it must be from 1 to the %d validation rows",
				Name, h, len(val))
			if across {
				return err.WithHint("A run across ranks validates one step ahead: horizon := 1, or train without ranks.")
			}
			if len(val) == 0 {
				return err.WithHint("validation_fraction := %g leaves no validation rows; a horizon above 1 needs validation.", j.Config.ValidationFraction)
			}
			return err.WithHint("Choose a horizon from 1 to %d, or a larger validation_fraction.", len(val))
		}
		return j.resolveStrategy()
	}
	j.Config.Horizon = max(1, h) // a resumed run's own; else 1 (see docs/forecasting-horizon.md)
	return j.resolveStrategy()
}

// StrategyOf is a model's strategy, recursive for models stored before
// strategies existed.
func StrategyOf(cfg gat.Config) string {
	if cfg.Strategy == "" {
		return gat.StrategyRecursive
	}
	return cfg.Strategy
}

// resolveStrategy settles the strategy once the horizon is: a direct or
// multi-output network has weights per step of the horizon, so a resumed
// one keeps its horizon, and at horizon 1 either is the recursive
// network, stored as such (a NOTICE says so).
func (j *Job) resolveStrategy() error {
	s := j.Config.Strategy
	if s == gat.StrategyRecursive {
		return nil
	}
	if j.From != nil && j.From.Model.Config.Horizon != j.Config.Horizon {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: horizon := %d differs from the horizon %d of %s, whose strategy %s has weights per step",
			Name, j.Config.Horizon, j.From.Model.Config.Horizon, j.FromRef, s).WithHint("Leave horizon out to keep the checkpoint's.")
	}
	if j.Config.Horizon <= 1 {
		j.Config.Strategy = gat.StrategyRecursive
		j.Caller.Notice(fmt.Sprintf("%s: strategy := %s at horizon 1 is the recursive strategy (one network, one step): trained and stored as recursive", Name, quote(s)))
	}
	return nil
}

// valLabel is the epoch NOTICEs' label of the validation MSE at horizon h.
func valLabel(h int) string {
	if h <= 1 {
		return "val_mse"
	}
	return fmt.Sprintf("val_mse(steps 1..%d)", h)
}

// horizonText says, after "validation MSE", over which steps it is.
func horizonText(h int) string {
	if h <= 1 {
		return ""
	}
	return fmt.Sprintf(" over steps 1..%d", h)
}

// trainTwin trains the twin of model without the graph (self loops only,
// see gat.Config.NoGraph) as model was trained: the same seed, epochs,
// early stopping and anchor (model's, not fitted again). It returns the
// network that validates better (the lower selection score; the graph's
// on a tie) with the other as its sibling, and says which in a NOTICE.
func (j *Job) trainTwin(ctx context.Context, ref mlops.Ref, m series.Matrix, model *gat.Model) (*gat.Model, error) {
	began := time.Now()
	cfg := model.Config
	cfg.NoGraph = true
	twin, err := gat.TrainFrom(ctx, cfg, m, gat.Start{Anchor: model.Anchor}, nil)
	if err != nil {
		return nil, fmt.Errorf("train the network without the graph: %w", err)
	}
	took := time.Since(began)
	what := "training MSE"
	if cfg.ValidationFraction > 0 {
		what = "validation MSE" + horizonText(cfg.Horizon)
	}
	with, without := model.Score(), twin.Score()
	chosen, other, verdict := model, twin, "the graph validates better: the version's network uses it"
	if without < with {
		chosen, other, verdict = twin, model, "the network without the graph validates better: it is the version's network (forecast, evaluate's gat); the graph network is gat_graph"
	}
	j.Caller.Notice(fmt.Sprintf("train_gat %s: %s with the graph %.6g (epoch %d), without it (self loops only, gat_no_graph, trained in %.2fs) %.6g (epoch %d); %s",
		ref, what, with, model.Kept, took.Seconds(), without, twin.Kept, verdict))
	return gat.WithSibling(chosen, other), nil
}
