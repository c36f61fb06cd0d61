package recommender

import (
	"fmt"
	"math"

	"github.com/mallard/mallard/mlops/nn"
)

// Config are the options of a training run. DefaultConfig gives the
// published architecture.
type Config struct {
	// Hidden are the widths of the hidden layers, encoder to decoder; the
	// input and output layers have one unit per item.
	Hidden []int `json:"hidden"`
	// Activation is the non-linearity of the hidden layers and Output that
	// of the output layer, by the names nn.ParseActivation accepts.
	Activation string `json:"activation"`
	Output     string `json:"output"`
	Epochs     int    `json:"epochs"`
	// LR is the learning rate; L2 the weight of the regularisation term
	// (see the package comment); Optimizer "adam" or "sgd".
	LR        float64 `json:"lr"`
	L2        float64 `json:"l2"`
	Optimizer string  `json:"optimizer"`
	// BatchSize is the number of users in a mini-batch.
	BatchSize int    `json:"batch_size"`
	Workers   int    `json:"workers"`
	Seed      uint64 `json:"seed"`
	// Relevant is the least test rating that makes an item relevant to its
	// user for Recall@10 and NDCG@10.
	Relevant float64 `json:"relevant"`
	// RankUsers caps the users whose rankings the per-epoch Recall@10 and
	// NDCG@10 average (a fixed sample chosen by Seed); 0 ranks every user.
	// Ranking scores every item for every user, so on large data it is
	// the dearest part of an epoch. Evaluate has its own limit.
	RankUsers int `json:"rank_users"`
	// Objective is what training minimises: Rating, the squared error of
	// the observed ratings, or Ranking, the multinomial log-likelihood of
	// each user's interactions (see the package comment). An empty
	// Objective is Rating, as models stored before there was a choice are.
	Objective string `json:"objective,omitempty"`
	// Dropout is the chance that the ranking objective drops an input of a
	// user during training (the rest are scaled by 1/(1−Dropout)).
	Dropout float64 `json:"dropout,omitempty"`
	// Negatives is the number of items the ranking objective samples per
	// mini-batch as the softmax's negatives; 0 takes every item (the exact
	// softmax), as does any number not below the items. AutoNegatives
	// chooses by the number of items; a training run resolves it (see
	// ForItems), so that a trained model's Config holds what it used.
	Negatives int `json:"negatives,omitempty"`
	// HoldOutUsers is the share of the users with enough ratings (see
	// HeldOutUsers) that training leaves out entirely, so that
	// evaluate's protocol 'users' can measure the model on users it never
	// saw; 0 trains on every user.
	HoldOutUsers float64 `json:"hold_out_users,omitempty"`
	// AnnealCap is, for RankingVAE, the most weight β the KL term reaches
	// (see vae.go); 0 is DefaultAnnealCap.
	AnnealCap float64 `json:"anneal_cap,omitempty"`
}

// The objectives a Config may name.
const (
	Rating     = "rating"
	Ranking    = "ranking"
	RankingVAE = "ranking_vae"
)

// Objectives are the accepted values of Config.Objective, the default first.
func Objectives() []string { return []string{Rating, Ranking, RankingVAE} }

// IsRanking reports whether objective is one of the ranking objectives,
// Ranking or RankingVAE, whose outputs rank items and predict no ratings.
func IsRanking(objective string) bool { return Config{Objective: objective}.ranking() }

// ranking reports whether c trains a ranking objective, Ranking or RankingVAE.
func (c Config) ranking() bool { return c.Objective == Ranking || c.Objective == RankingVAE }

// vae reports whether c's network is variational (RankingVAE).
func (c Config) vae() bool { return c.Objective == RankingVAE }

// DefaultAnnealCap is the KL term's largest weight where Config.AnnealCap is 0.
const DefaultAnnealCap = 0.2

// AutoNegatives, as Config.Negatives, is the exact softmax where the items
// number at most ExactSoftmaxItems and SampledNegatives sampled negatives
// a batch beyond: DefaultRankingVAEConfig's choice.
const AutoNegatives = -1

// ExactSoftmaxItems is the most items for which AutoNegatives is the exact
// softmax, and SampledNegatives the negatives a batch it samples beyond.
// The softmax's part of a user's pass costs in proportion to the items
// it scores, so up to ExactSoftmaxItems the exact one costs at most about
// ExactSoftmaxItems/SampledNegatives (3.3) times the sampled one: on
// MovieLens small (9,066 items) a run took 2.9 to 3.4 times as long, and
// validated better (see DefaultRankingVAEConfig). The MovieLens-25M
// shape, with 62,423 items, stays sampled: there the exact softmax would
// cost about 20 times as much.
const (
	ExactSoftmaxItems = 10000
	SampledNegatives  = 3000
)

// ForItems returns c for a training run over items items: with
// AutoNegatives resolved to 0 (the exact softmax) or SampledNegatives.
func (c Config) ForItems(items int) Config {
	if c.Negatives == AutoNegatives {
		c.Negatives = SampledNegatives
		if items <= ExactSoftmaxItems {
			c.Negatives = 0
		}
	}
	return c
}

// annealCap is c.AnnealCap, DefaultAnnealCap when 0.
func (c Config) annealCap() float64 {
	if c.AnnealCap == 0 {
		return DefaultAnnealCap
	}
	return c.AnnealCap
}

// objective is c.Objective, Rating when empty.
func (c Config) objective() string {
	if c.Objective == "" {
		return Rating
	}
	return c.Objective
}

// MaxHidden is the widest hidden layer a Config may ask for.
const MaxHidden = 4096

// DefaultConfig is the published architecture, hidden layers 150, 25 and
// 150 and a sigmoid output, with tanh inside: Adam at learning rate 0.001
// on batches of 64 users for 30 epochs, L2 = 1e-4, one worker. The
// published model used ReLU inside; on a validation split of MovieLens
// small (carved from the training ratings, never the test ones) ReLU
// reached RMSE 0.929 after 30 epochs and ranked below the item means,
// tanh 0.894. Without a penalty a user-based autoencoder learns to copy
// its input and ranks worse than the item means within a few epochs.
func DefaultConfig() Config {
	return Config{Hidden: []int{150, 25, 150}, Activation: "tanh", Output: "sigmoid", Epochs: 30,
		LR: 0.001, L2: 1e-4, Optimizer: "adam", BatchSize: 64, Workers: 1, Relevant: 4, RankUsers: 1000, Objective: Rating}
}

// DefaultRankingConfig is the ranking objective's configuration:
// DefaultConfig's but for one hidden layer of 200 (the width of the code
// of Liang et al.'s networks, whose 600, 200, 600 did worse here),
// Adam at learning rate 0.003 for 40 epochs, input dropout 0.5 as in
// Mult-DAE, and 1,000 sampled negatives a batch. It was chosen on a
// validation split of MovieLens small carved from the training ratings
// (a further 1/9 of them, seed 2; see TestRankingStudy), where it had
// Recall@10 0.223 (0.221 and 0.217 with seeds 1 and 2) and NDCG@10 0.184,
// popularity 0.102 and 0.092. Changing one option at a time: hidden
// layers 150, 25, 150 gave Recall@10 0.167, 600, 200, 600 0.176, 100 0.206
// and 400 0.210; learning rate 0.001 0.172 (0.219 in 80 epochs) and 0.01
// 0.184; 20, 30 and 80 epochs 0.197, 0.211 and 0.202; dropout 0.2 and 0.7
// 0.212 and 0.216; batches of 32 and 128 0.210 and 0.215; L2 1e-5 and
// 1e-3 0.223 and 0.222, 1e-2 0.211; 4,000 negatives 0.225 in four times
// the time, and the exact softmax (Negatives 0) 0.232 in 30 epochs and
// ten times the time (on the test split it matched the default: Recall@10
// 0.236 against 0.240).
//
// A second study on the same validation split, where EASE has Recall@10
// 0.2365 and NDCG@10 0.2073, found nothing that closes the gap to it
// (Recall@10 and NDCG@10; the default had 0.2230 and 0.1836 with seed 0,
// 0.2209 and 0.1793 with seed 1): the exact softmax 0.2266 and 0.1845,
// 0.2322 and 0.1938 in 30 epochs (kept out of the default for its cost,
// which grows with the items);
// ReLU, ELU and the identity inside 0.2107 and 0.1687, 0.2112 and 0.1771,
// 0.2139 and 0.1777; one hidden layer of 600 0.2008 and 0.1615 (0.1940 and
// 0.1602 with L2 1e-3); every rated item as input, the interactions still
// the targets, 0.2220 and 0.1888 (seed 1: 0.2123 and 0.1777), the same
// with inputs weighted by rating 0.2216 and 0.1872. Measured every 10
// epochs over every validation user, the metrics peak at epoch 40 (0.2230
// and 0.1836) and fall to 0.2022 and 0.1637 by epoch 80.
func DefaultRankingConfig() Config {
	c := DefaultConfig()
	c.Objective, c.Hidden, c.LR, c.Epochs, c.Dropout, c.Negatives = Ranking, []int{200}, 0.003, 40, 0.5, 1000
	return c
}

// DefaultRankingVAEConfig is the RankingVAE objective's configuration:
// DefaultRankingConfig's but for AutoNegatives (the exact softmax up to
// ExactSoftmaxItems items, 3,000 sampled negatives a batch beyond) and the
// KL term's weight annealed to DefaultAnnealCap (see vae.go). It was
// chosen on the validation split of DefaultRankingConfig's study, where
// EASE has Recall@10 0.2365 and NDCG@10 0.2073: it had 0.2355 and 0.2021
// (model seed 0; 0.2245 and 0.1901 with seed 1), DefaultRankingConfig
// 0.2230 and 0.1836 (0.2209 and 0.1793), the denoising network with 3,000
// negatives 0.2258 and 0.1851; with 1,000 negatives the variational one
// had 0.2218 and 0.1890 at cap 0.2, 0.2220 and 0.1908 at 0.5, 0.2169 and
// 0.1904 at 1; with 2,000, 0.2255 and 0.1959; with 3,000 at cap 0.5,
// 0.2298 and 0.1997.
//
// A fourth study, on the same split, made the softmax exact where the
// items are few (AutoNegatives; Negatives 3,000 is the former default):
// the exact softmax had Recall@10 0.2365 and NDCG@10 0.2052 (seed 1:
// 0.2255 and 0.1967), on average 0.977 and 0.969 of EASE's against 0.973
// and 0.946 with 3,000 negatives. With it, 30 epochs had 0.2324 and
// 0.2002, hidden layers 600 and 200 0.2140 and 0.1795, batches of 128
// 0.2214 and 0.1957, cap 0.5 0.2289 and 0.2027, 60 epochs 0.2364 and
// 0.2046 (NDCG@10 highest at epoch 40 when read every 10), all seed 0;
// L2 1e-5 0.2356 and 0.2045 (seed 1: 0.2245 and 0.1962). On the test
// split of seed 1 it has 0.2550 and 0.2230 (two workers; model seed 1,
// one worker, 0.2584 and 0.2268), EASE 0.2539 and 0.2306. Over MovieLens
// small's 9,066 items the exact softmax trains about 3 times as long as
// 3,000 negatives (2.9 to 3.4 on a loaded host; see ExactSoftmaxItems and
// BenchmarkRankingObjectivesCost), and about 5 times as long as
// DefaultRankingConfig.
func DefaultRankingVAEConfig() Config {
	c := DefaultRankingConfig()
	c.Objective, c.Negatives, c.AnnealCap = RankingVAE, AutoNegatives, DefaultAnnealCap
	return c
}

// DefaultObjectiveConfig is the default configuration of objective:
// DefaultConfig, DefaultRankingConfig or DefaultRankingVAEConfig.
func DefaultObjectiveConfig(objective string) Config {
	switch objective {
	case Ranking:
		return DefaultRankingConfig()
	case RankingVAE:
		return DefaultRankingVAEConfig()
	}
	return DefaultConfig()
}

// Validate reports the first option out of range.
func (c Config) Validate() error {
	if len(c.Hidden) == 0 {
		return fmt.Errorf("hidden must list at least one layer width")
	}
	for _, h := range c.Hidden {
		if h < 1 || h > MaxHidden {
			return fmt.Errorf("hidden width %d must be between 1 and %d", h, MaxHidden)
		}
	}
	if _, ok := nn.ParseActivation(c.Activation); !ok {
		return fmt.Errorf("activation %q is not one of identity, relu, elu, leaky_relu, sigmoid, tanh", c.Activation)
	}
	if _, ok := nn.ParseActivation(c.Output); !ok {
		return fmt.Errorf("output %q is not one of identity, relu, elu, leaky_relu, sigmoid, tanh", c.Output)
	}
	switch {
	case c.Epochs < 1:
		return fmt.Errorf("epochs %d must be at least 1", c.Epochs)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("lr %v must be positive and finite", c.LR)
	case !(c.L2 >= 0) || math.IsInf(c.L2, 0):
		return fmt.Errorf("l2 %v must be non-negative and finite", c.L2)
	case c.Optimizer != "adam" && c.Optimizer != "sgd":
		return fmt.Errorf("optimizer %q is not adam or sgd", c.Optimizer)
	case c.BatchSize < 1:
		return fmt.Errorf("batch_size %d must be at least 1", c.BatchSize)
	case c.Workers < 1:
		return fmt.Errorf("workers %d must be at least 1", c.Workers)
	case !(c.HoldOutUsers >= 0 && c.HoldOutUsers < 1):
		return fmt.Errorf("hold_out_users %v must be in [0, 1)", c.HoldOutUsers)
	case math.IsNaN(c.Relevant):
		return fmt.Errorf("relevant must be a number")
	case c.RankUsers < 0:
		return fmt.Errorf("rank_users %d must not be negative", c.RankUsers)
	case c.Objective != "" && c.Objective != Rating && !c.ranking():
		return fmt.Errorf("objective %q is not %s, %s or %s", c.Objective, Rating, Ranking, RankingVAE)
	case !(c.AnnealCap >= 0) || math.IsInf(c.AnnealCap, 0):
		return fmt.Errorf("anneal_cap %v must be non-negative and finite", c.AnnealCap)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("dropout %v must be at least 0 and below 1", c.Dropout)
	case c.Negatives < 0 && c.Negatives != AutoNegatives:
		return fmt.Errorf("negatives %d must not be negative (but for %d, AutoNegatives)", c.Negatives, AutoNegatives)
	}
	return nil
}

// activations returns the parsed hidden and output activations of a
// valid Config.
func (c Config) activations() (hidden, output nn.Activation) {
	hidden, _ = nn.ParseActivation(c.Activation)
	output, _ = nn.ParseActivation(c.Output)
	return hidden, output
}
