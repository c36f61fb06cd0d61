//go:build duckdb_arrow

package functions

import "github.com/mallard/mallard/mlops/recommender"

// activations are the values activation := and output := accept.
func activations() []string {
	return []string{"tanh", "relu", "elu", "leaky_relu", "sigmoid", "identity"}
}

// trainRecArgs are train_recommender's arguments. The model's options
// bind into the recommender.Config it trains with, their defaults
// recommender.DefaultConfig's (a ranking objective's come from
// recommender.DefaultObjectiveConfig when the call leaves them out).
type trainRecArgs struct {
	given
	recommender.Config
	Source, Model   string
	User, Item      string
	Rating          string
	TestFraction    float64
	MinUserRatings  int64
	Ranks           int
	Duplicates      string
	Deploy          string
	CheckpointEvery int
	Resume          string // "" for a new run
	AllowDataChange bool
	Implicit        bool
	ItemNames       string // "" when not given
}

func (o *trainRecArgs) params() []param {
	def, ranking := recommender.DefaultConfig(), recommender.DefaultRankingConfig()
	return []param{sourceArg(&o.Source),
		textArg(&o.Model, "model", "the model's name; a resumed run's by default"),
		textArg(&o.User, "user", "the user id column").or("user_id"),
		textArg(&o.Item, "item", "the item id column").or("item_id"),
		textArg(&o.Rating, "rating", "the rating column").or("rating"),
		sizesArg(&o.Hidden, "hidden", "the sizes of the autoencoder's hidden layers").or(def.Hidden),
		textArg(&o.Activation, "activation", "the hidden layers' activation").oneOf(activations()...).or(def.Activation),
		textArg(&o.Output, "output", "the output layer's activation").oneOf(activations()...).or(def.Output),
		intArg(&o.Epochs, "epochs", 1, 100_000, "passes over the users").or(def.Epochs),
		floatArg(&o.LR, "lr", 0, 10, "the learning rate").open(true, false).or(def.LR),
		textArg(&o.Optimizer, "optimizer", "the optimiser").oneOf("adam", "sgd").or(def.Optimizer),
		intArg(&o.BatchSize, "batch_size", 1, 1_000_000, "users per gradient step").or(def.BatchSize),
		floatArg(&o.L2, "l2", 0, 100, "the weight decay").or(def.L2),
		floatArg(&o.TestFraction, "test_fraction", 0, 1, "the share of each user's ratings held out for testing").open(true, true).or(0.1),
		intArg(&o.MinUserRatings, "min_user_ratings", 1, 1_000_000, "users with fewer ratings are left out").or(1),
		workersArg(&o.Workers), ranksArg(&o.Ranks), seedArg(&o.Seed),
		textArg(&o.Duplicates, "duplicates", "a user's several ratings of one item: refused, or averaged").oneOf("error", "avg").or("error"),
		floatArg(&o.Relevant, "relevant", -1e9, 1e9, "the rating from which an item counts as relevant for recall and NDCG").or(def.Relevant),
		intArg(&o.RankUsers, "rank_users", 0, 1<<31, "users whose rankings each epoch's recall and NDCG average; 0 skips them").or(def.RankUsers),
		floatArg(&o.HoldOutUsers, "hold_out_users", 0, 0.9, "the share of users held out whole, to measure fold-in").or(0.0),
		deployArg(&o.Deploy), checkpointArg(&o.CheckpointEvery), resumeArg(&o.Resume), allowDataChangeArg(&o.AllowDataChange),
		textArg(&o.Objective, "objective", "predict ratings, or rank items (ranking, ranking_vae)").oneOf(recommender.Objectives()...).
			or(def.Objective),
		floatArg(&o.Dropout, "dropout", 0, 1, "a ranking objective's input dropout").open(false, true).or(ranking.Dropout),
		intArg(&o.Negatives, "negatives", 0, 1_000_000, "a ranking objective's sampled negatives per batch; 0 is the exact softmax").
			or(ranking.Negatives),
		floatArg(&o.AnnealCap, "anneal_cap", 0, 100, "ranking_vae's largest KL weight").or(recommender.DefaultAnnealCap),
		boolArg(&o.Implicit, "implicit", "the rows are interactions without ratings").or(false),
		textArg(&o.ItemNames, "item_names", "a table or query of the items' names, for the dashboard and NOTICEs")}
}
