//go:build duckdb_arrow

package functions

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mallard/mallard/mlops/recommender"
)

// recArtifact is what the registry stores for a recommender version, final
// or checkpoint: the model, the columns it was trained on, and every
// rating it knows, split as in training: the test ratings to evaluate it
// again, both sides as each user's history to recommend from.
type recArtifact struct {
	Model       *recommender.Model
	Train, Test recommender.Ratings
	Columns     recColumns
	Epoch       int

	popularOnce sync.Once
	popular     []recommender.Scored // every item, most popular first
	derived     recDerived           // EASE and evaluations, computed when first asked for
}

// recHeader is the artifact's small part, stored as JSON.
type recHeader struct {
	Epoch   int        `json:"epoch"`
	Columns recColumns `json:"columns"`
}

// artifact is the model after epoch, as stored: recommender.AppendArtifact
// of the header (the epoch and the source's columns), the model and the
// training and test ratings.
func (j *recJob) artifact(model *recommender.Model, train, test recommender.Ratings, epoch int) ([]byte, error) {
	header, err := json.Marshal(recHeader{Epoch: epoch, Columns: j.cols})
	if err != nil {
		return nil, err
	}
	return recommender.AppendArtifact(nil, header, model, train, test)
}

// decodeRecArtifact decodes an artifact for serving: the model's weights
// and the ratings share data's memory rather than copy it (see
// recommender.UnmarshalShared), so that decoding does not hold the
// artifact and a copy of it at once; data is not to be used afterwards.
func decodeRecArtifact(data []byte) (*recArtifact, error) {
	parts, h, err := splitRecArtifact(data, 4)
	if err != nil {
		return nil, fmt.Errorf("decode recommender artifact: %w", err)
	}
	m, err := recommender.UnmarshalShared(parts[1])
	if err != nil {
		return nil, err
	}
	a := &recArtifact{Model: m, Columns: h.Columns, Epoch: h.Epoch}
	if a.Train, err = recommender.UnmarshalRatingsShared(parts[2], m.UserIDs, m.ItemIDs); err != nil {
		return nil, err
	}
	if a.Test, err = recommender.UnmarshalRatingsShared(parts[3], m.UserIDs, m.ItemIDs); err != nil {
		return nil, err
	}
	if a.Train.Items != m.Items || a.Test.Items != m.Items || a.Train.Users != a.Test.Users {
		return nil, fmt.Errorf("decode recommender artifact: the ratings do not fit the model")
	}
	return a, nil
}

// splitRecArtifact returns the first n parts of an artifact (see
// recommender.AppendArtifact), without copying them out of data, and its
// header, the first part, decoded.
func splitRecArtifact(data []byte, n int) ([][]byte, recHeader, error) {
	var h recHeader
	parts, err := recommender.ArtifactParts(data, n)
	if err != nil {
		return nil, h, err
	}
	if err := json.Unmarshal(parts[0], &h); err != nil {
		return nil, h, err
	}
	return parts, h, nil
}

// popularItems are every item, most popular first, as the model's Popular
// ranks and scores them: the fallback for users the model does not know.
func (a *recArtifact) popularItems() []recommender.Scored {
	a.popularOnce.Do(func() { a.popular = a.Model.Popular(a.Train, a.Test) })
	return a.popular
}
