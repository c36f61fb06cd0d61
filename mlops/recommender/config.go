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
		LR: 0.001, L2: 1e-4, Optimizer: "adam", BatchSize: 64, Workers: 1, Relevant: 4, RankUsers: 1000}
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
	case math.IsNaN(c.Relevant):
		return fmt.Errorf("relevant must be a number")
	case c.RankUsers < 0:
		return fmt.Errorf("rank_users %d must not be negative", c.RankUsers)
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
