//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/recommender"
)

// recArtifact is a recommender version as serving decodes it (see
// recommender.Stored), with what serving derives from it once (EASE and
// evaluations, computed when first asked for).
type recArtifact struct {
	*recommender.Stored
	derived recDerived
}

// artifact is the model after epoch, as stored (see
// recommender.EncodeStored), with the source's columns.
func (j *recJob) artifact(model *recommender.Model, train, test recommender.Ratings, epoch int) ([]byte, error) {
	return recommender.EncodeStored(model, train, test, epoch, j.cols)
}

// decodeRecArtifact decodes an artifact for serving (see
// recommender.DecodeStored); data is not to be used afterwards.
func decodeRecArtifact(data []byte) (*recArtifact, error) {
	s, err := recommender.DecodeStored(data)
	if err != nil {
		return nil, err
	}
	return &recArtifact{Stored: s}, nil
}
