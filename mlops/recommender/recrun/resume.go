package recrun

import (
	"encoding/json"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// Params are a train_recommender run's hyperparameters as mlops.models
// records them.
type Params struct {
	recommender.Config
	recommender.Columns
	TestFraction   float64 `json:"test_fraction"`
	MinUserRatings int64   `json:"min_user_ratings"`
	Duplicates     string  `json:"duplicates"`
	Ranks          int     `json:"ranks,omitempty"`
}

// Start is the version a resumed train_recommender run continues: the
// model of its last checkpoint (or its final one), the epoch it had
// trained, and what the registry recorded of its data.
type Start struct {
	Ref         mlops.Ref
	Fingerprint string
	Model       *recommender.Model
	Epoch       int
	ItemNames   recommender.ItemNames
}

// LoadStart decodes the version ref as the registry keeps it: its
// recorded hyperparameters, its data's fingerprint and its artifact, of
// which it keeps the parts training goes on from (see
// recommender.DecodeStart). Either failing to decode is 22P06's
// DataCorrupted.
func LoadStart(ref mlops.Ref, fingerprint, hyperparameters string, artifact []byte) (*Start, Params, error) {
	var prev Params
	if err := json.Unmarshal([]byte(hyperparameters), &prev); err != nil {
		return nil, prev, sqlstate.New(sqlstate.DataCorrupted, "%s: resume: the hyperparameters of %s: %v", Fn, ref, err)
	}
	m, epoch, err := recommender.DecodeStart(artifact)
	if err != nil {
		return nil, prev, sqlstate.New(sqlstate.DataCorrupted, "%s: resume: the saved weights of %s: %v", Fn, ref, err)
	}
	return &Start{Ref: ref, Fingerprint: fingerprint, Model: m, Epoch: epoch, ItemNames: prev.ItemNames}, prev, nil
}

// CheckEpochs refuses a resumed run that would train no epoch.
func (s *Start) CheckEpochs(epochs int) error {
	if s.Epoch >= epochs {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s has trained %d epochs; to resume it, epochs must be more than that, not %d",
			Fn, s.Ref, s.Epoch, epochs).WithHint("Give epochs := %d or more.", s.Epoch+1)
	}
	return nil
}
