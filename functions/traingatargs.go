//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/training"
)

// trainGATArgs are train_gat's arguments. The model's options bind into
// the gat.Config it trains with; the rest say where the data is and
// what becomes of the model.
type trainGATArgs struct {
	given
	gat.Config
	Source, Model   string
	Ranks           int
	Time            []string // nil when not given
	Entity, Value   string   // "" when not given: a wide source
	Scaler          string   // "" when not given
	Deploy          string
	CheckpointEvery int
	Resume          string // "" for a new run
	AllowDataChange bool
	CompareGraph    bool
}

func (o *trainGATArgs) params() []param {
	return []param{sourceArg(&o.Source),
		textArg(&o.Model, "model", "the model's name; a resumed run's by default"),
		intArg(&o.Window, "window", 1, 1000, "time steps of history each node sees").or(4),
		sizesArg(&o.Hidden, "hidden", "the sizes of the hidden graph-attention layers").or([]int{16, 16}),
		intArg(&o.Heads, "heads", 1, 16, "attention heads per layer").or(1),
		intArg(&o.Epochs, "epochs", 1, 1_000_000, "passes over the training windows").or(200),
		floatArg(&o.LR, "lr", 0, 10, "the learning rate").open(true, false).or(0.005),
		floatArg(&o.Momentum, "momentum", 0, 1, "SGD's momentum").open(false, true).or(0.9),
		textArg(&o.Optimizer, "optimizer", "the optimiser").oneOf("sgd", "adam").or("sgd"),
		intArg(&o.BatchSize, "batch_size", 1, 1_000_000, "windows per gradient step").or(32),
		floatArg(&o.TrainFraction, "train_fraction", 0, 1, "the leading share of time steps trained on").open(true, true).or(0.7),
		intArg(&o.Patience, "patience", 0, 1_000_000, "epochs without a better validation loss before stopping; 0 never stops early").or(20),
		workersArg(&o.Workers), ranksArg(&o.Ranks), seedArg(&o.Seed),
		intArg(&o.Neighbors, "neighbors", 0, 1_000_000, "edges kept per entity, the most correlated; 0 keeps all").or(0),
		timeArg(&o.Time),
		textArg(&o.Entity, "entity", "the entity column of a long source (entity, time, value rows)"),
		textArg(&o.Value, "value", "the value column of a long source"),
		textArg(&o.Scaler, "scaler", "the scaler rescale saved for a wide source, so forecasts come in original units"),
		deployArg(&o.Deploy), checkpointArg(&o.CheckpointEvery), resumeArg(&o.Resume), allowDataChangeArg(&o.AllowDataChange),
		textArg(&o.Target, "target", "what the network predicts: the change from the last value, or the level").
			oneOf("change", "level").or("change"),
		intArg(&o.Highway, "highway", 0, 1000, "lags of a linear path beside the network; by default max(4, season)").or(4),
		floatArg(&o.Clip, "clip", 0, 1e6, "the largest gradient norm; 0 does not clip").or(5.0),
		floatArg(&o.ValidationFraction, "validation_fraction", 0, 0.9, "the share of training steps held out for early stopping").or(0.15),
		intArg(&o.Season, "season", 0, 100_000, "the seasonal period; 0 finds it from the data").or(0),
		textArg(&o.Anchor, "anchor", "what a change is measured from").oneOf(append([]string{gat.AnchorAuto}, gat.AnchorKinds()...)...).
			or(gat.AnchorAuto),
		intArg(&o.Horizon, "horizon", 1, 100_000, "the steps ahead the run is scored and chosen for; by default 1"),
		textArg(&o.AnchorOrigins, "anchor_origins", "where anchor auto scores its candidates: every rolling origin, or the validation span alone; by default by the number of entities").
			oneOf(gat.AnchorOriginRules()...),
		textArg(&o.Ladder, "ladder", "the methods fitted on every entity to compare with and anchor to: all of them, or all but arima; by default by the number of entities").
			oneOf(gat.LadderRules()...),
		boolArg(&o.CompareGraph, "compare_graph", "also train the network without its graph, to measure what the graph adds").or(false),
		textArg(&o.Strategy, "strategy", "how forecasts past one step are made").oneOf(gat.Strategies()...).or(gat.StrategyRecursive)}
}

// The arguments every training function shares.

func workersArg(f *int) param {
	return intArg(f, "workers", 1, 64, "data-parallel workers in this process (per rank with ranks)").or(1)
}

func ranksArg(f *int) param {
	return intArg(f, "ranks", 1, training.MaxRanks, "MPI ranks to train across; 1 trains in this process").or(1)
}

func seedArg(f *uint64) param {
	return intArg(f, "seed", 0, unbounded, "the seed of every random choice: a run is repeatable").or(0)
}

func deployArg(f *string) param {
	return textArg(f, "deploy", "deploy the new version: if better than the deployed one, always, or never").
		oneOf("auto", "always", "never").or("auto")
}

func checkpointArg(f *int) param {
	return intArg(f, "checkpoint_every", 0, 1_000_000, "store a resumable checkpoint every this many epochs; 0 at each epoch the run keeps (a new best)").or(0)
}

func resumeArg(f *string) param {
	return textArg(f, "resume", "continue training the version this names, 'name' or 'name@version'")
}

func allowDataChangeArg(f *bool) param {
	return boolArg(f, "allow_data_change", "resume on data that differ from the checkpoint's").or(false)
}
