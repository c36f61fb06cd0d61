//go:build duckdb_arrow

package functions

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"

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

// recDerived is what serving computes from a recommender version once and
// keeps with its decoded artifact: EASE fitted to its training ratings,
// and evaluate's rows by protocol. mu is held while one is computed, so
// that concurrent callers wait for one fit rather than each running it.
type recDerived struct {
	mu      sync.Mutex
	ease    *recommender.EASE
	easeErr error // a *recommender.TooManyItemsError: the same data is refused again
	evals   map[string]recEvaluation
}

// easeFit returns EASE fitted to the version's training ratings with its
// relevant and seed (see recommender.FitEASE), fitting it at the first
// call. A cancelled fit is not kept.
func (a *recArtifact) easeFit(ctx context.Context) (*recommender.EASE, error) {
	d := &a.derived
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ease != nil || d.easeErr != nil {
		return d.ease, d.easeErr
	}
	e, err := recommender.FitEASE(ctx, a.Train, a.Model.Config.Relevant, a.Model.Config.Seed)
	var tooMany *recommender.TooManyItemsError
	switch {
	case errors.As(err, &tooMany):
		d.easeErr = err
	case err == nil:
		d.ease = e
	}
	return e, err
}

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
		e, err := s.easeFit(ctx)
		if err != nil {
			return nil, easeRefusal(fn, err)
		}
		return e.Recommend(items, vals, k, excludeSeen), nil
	case methodPopularity:
		return s.popular(items, k, excludeSeen), nil
	}
	return s.Model.Recommend(items, vals, k, excludeSeen), nil
}

// popular returns the k most popular items (see popularItems), leaving out
// seen (increasing) with excludeSeen.
func (s *storedRec) popular(seen []int32, k int, excludeSeen bool) []recommender.Scored {
	var out []recommender.Scored
	for _, r := range s.PopularItems() {
		if len(out) == k {
			break
		}
		if _, found := slices.BinarySearch(seen, int32(r.Item)); !found || !excludeSeen {
			out = append(out, r)
		}
	}
	return out
}

// historyRating is the rating each item of a history goes in with: the
// least that makes an item relevant, within the ratings' scale, so that
// every method reads it as an interaction the user chose.
func (s *storedRec) historyRating() float32 {
	return float32(math.Min(math.Max(s.Model.Config.Relevant, s.Model.Min), s.Model.Max))
}
