package recommender

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Columns are the source's user, item and rating columns a version was
// trained on, and whether the user and item ids are text (else
// integers). Implicit data has no rating column: every row is an
// interaction, read as a rating of 1.
type Columns struct {
	User       string `json:"user"`
	Item       string `json:"item"`
	Rating     string `json:"rating"`
	Implicit   bool   `json:"implicit,omitempty"`
	UserIsText bool   `json:"user_is_text"`
	ItemIsText bool   `json:"item_is_text"`
	// ItemNames is where the items' names are, when item_names := says.
	ItemNames ItemNames `json:"item_names,omitzero"`
}

// ItemNames is train_recommender's item_names argument, as the version
// records it (in its hyperparameters): the table that names the items, its
// column of names, and its column of item ids, which has the name of the
// item column of the ratings. Readers of a version, the dashboard among
// them, show an item's name beside its id with it.
type ItemNames struct {
	Table  string `json:"table"`
	Column string `json:"column"`
	Key    string `json:"key"`
}

// Stored is what the registry stores for a recommender version, final
// or checkpoint: the model, the columns it was trained on, and every
// rating it knows, split as in training: the test ratings to evaluate it
// again, both sides as each user's history to recommend from.
type Stored struct {
	Model       *Model
	Train, Test Ratings
	Columns     Columns
	Epoch       int

	popularOnce sync.Once
	popular     []Scored // every item, most popular first
	derived     derived  // EASE and evaluations, computed when first asked for
}

// storedHeader is the artifact's small part, stored as JSON.
type storedHeader struct {
	Epoch   int     `json:"epoch"`
	Columns Columns `json:"columns"`
}

// EncodeStored is the model after epoch, as stored: AppendArtifact of
// the header (the epoch and the source's columns), the model and the
// training and test ratings.
func EncodeStored(model *Model, train, test Ratings, epoch int, cols Columns) ([]byte, error) {
	header, err := json.Marshal(storedHeader{Epoch: epoch, Columns: cols})
	if err != nil {
		return nil, err
	}
	return AppendArtifact(nil, header, model, train, test)
}

// DecodeStored decodes an artifact for serving: the model's weights and
// the ratings share data's memory rather than copy it (see
// UnmarshalShared), so that decoding does not hold the artifact and a
// copy of it at once; data is not to be used afterwards.
func DecodeStored(data []byte) (*Stored, error) {
	parts, h, err := splitStored(data, 4)
	if err != nil {
		return nil, fmt.Errorf("decode recommender artifact: %w", err)
	}
	m, err := UnmarshalShared(parts[1])
	if err != nil {
		return nil, err
	}
	a := &Stored{Model: m, Columns: h.Columns, Epoch: h.Epoch}
	if a.Train, err = UnmarshalRatingsShared(parts[2], m.UserIDs, m.ItemIDs); err != nil {
		return nil, err
	}
	if a.Test, err = UnmarshalRatingsShared(parts[3], m.UserIDs, m.ItemIDs); err != nil {
		return nil, err
	}
	if a.Train.Items != m.Items || a.Test.Items != m.Items || a.Train.Users != a.Test.Users {
		return nil, fmt.Errorf("decode recommender artifact: the ratings do not fit the model")
	}
	return a, nil
}

// DecodeStart decodes the parts of a stored version that training goes
// on from: the model, copied out of data, so that the ratings, the bulk
// of it, are not kept, and the epoch it had trained.
func DecodeStart(data []byte) (*Model, int, error) {
	parts, h, err := splitStored(data, 2)
	if err != nil {
		return nil, 0, err
	}
	m, err := Unmarshal(parts[1])
	if err != nil {
		return nil, 0, err
	}
	return m, h.Epoch, nil
}

// splitStored returns the first n parts of an artifact (see
// AppendArtifact), without copying them out of data, and its header, the
// first part, decoded.
func splitStored(data []byte, n int) ([][]byte, storedHeader, error) {
	var h storedHeader
	parts, err := ArtifactParts(data, n)
	if err != nil {
		return nil, h, err
	}
	if err := json.Unmarshal(parts[0], &h); err != nil {
		return nil, h, err
	}
	return parts, h, nil
}

// PopularItems are every item, most popular first, as the model's
// Popular ranks and scores them: the fallback for users the model does
// not know.
func (a *Stored) PopularItems() []Scored {
	a.popularOnce.Do(func() { a.popular = a.Model.Popular(a.Train, a.Test) })
	return a.popular
}
