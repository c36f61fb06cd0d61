//go:build duckdb_arrow

package functions

import (
	"context"
	"errors"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

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

// rankBy returns the k best items by method (see recommender.Stored.Rank),
// EASE's refusal of the data worded as fn's error.
func (s *storedRec) rankBy(ctx context.Context, fn, method string, items []int32, vals []float32, k int, excludeSeen bool) ([]recommender.Scored, error) {
	recs, err := s.Rank(ctx, method, items, vals, k, excludeSeen)
	if err != nil {
		return nil, easeRefusal(fn, err)
	}
	return recs, nil
}
