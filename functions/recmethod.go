//go:build duckdb_arrow

package functions

import (
	"context"
	"errors"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// The methods recommend and recommend_for rank by.
const (
	methodModel      = "model"
	methodEASE       = recommender.EASEMethod
	methodPopularity = "popularity"
)

func recMethods() []string { return []string{methodModel, methodEASE, methodPopularity} }

// easeRefusal is the SQL error of asking fn for EASE where it refuses the
// data, or err itself.
func easeRefusal(fn string, err error) error {
	var tooMany *recommender.TooManyItemsError
	if !errors.As(err, &tooMany) {
		return err
	}
	return sqlstate.New(sqlstate.ProgramLimitExceeded, "%s: method := 'ease' fits at most %d items, and %d items have at least %d ratings of at least relevant",
		fn, tooMany.Limit, tooMany.Items, tooMany.MinCount).
		WithDetail("EASE inverts an items x items matrix, whose size and cost grow as the square and the cube of the items.").
		WithHint("Use method := 'model' or method := 'popularity'.")
}

// rankBy returns the k best items by method for a user whose known
// ratings are vals of items (increasing), the user's own items left out
// with excludeSeen.
func (s *storedRec) rankBy(ctx context.Context, fn, method string, items []int32, vals []float32, k int, excludeSeen bool) ([]recommender.Scored, error) {
	switch method {
	case methodEASE:
		e, err := s.EASE(ctx)
		if err != nil {
			return nil, easeRefusal(fn, err)
		}
		return e.Recommend(items, vals, k, excludeSeen), nil
	case methodPopularity:
		return s.Popular(items, k, excludeSeen), nil
	}
	return s.Model.Recommend(items, vals, k, excludeSeen), nil
}
