//go:build duckdb_arrow

package functions

import (
	"context"
	"errors"
	"fmt"
	"math"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// The protocols evaluate of a recommender measures by.
const (
	// protocolRatings is the per-rating split the version was trained on:
	// each user's training ratings in, its test ratings scored.
	protocolRatings = "ratings"
	// protocolUsers is strong generalisation (see recommender.UsersProtocol):
	// users none of whose ratings was trained on, 80 % of each one's
	// ratings in, the rest scored.
	protocolUsers = "users"
)

func recProtocols() []string { return []string{protocolRatings, protocolUsers} }

// evaluateRecColumns are evaluate's columns for a recommender: those of
// its first release, then the longer cut-offs.
func evaluateRecColumns() []duckdb.ColumnInfo {
	cols := []duckdb.ColumnInfo{{Name: "method", T: varcharType()}}
	for _, name := range []string{"test_rmse", "recall_at_10", "ndcg_at_10", "recall_at_20", "ndcg_at_100"} {
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
	}
	return cols
}

// bindEvaluateRecommender is evaluate of a recommender: the model, the
// baselines and EASE measured under protocol ("" for 'ratings'), computed
// from the stored version when first asked for and kept with it.
func bindEvaluateRecommender(c *call, ref mlops.Ref, protocol string) (*table, error) {
	s, err := loadRec(c.ctx(), c, "evaluate", ref)
	if err != nil {
		return nil, err
	}
	if s.metrics == "" {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "evaluate: %s did not finish training and has no metrics", s.ref)
	}
	if protocol == "" {
		protocol = protocolRatings
	}
	return &table{cols: evaluateRecColumns(), open: func(ctx context.Context) (*run, error) {
		ms, err := s.evaluation(ctx, c, protocol)
		if err != nil {
			return nil, err
		}
		rows := make([][]any, len(ms))
		for i, m := range ms {
			rows[i] = []any{m.Method, nanNull(m.RMSE), nanNull(m.RecallAt10), nanNull(m.NDCGAt10), nanNull(m.RecallAt20), nanNull(m.NDCGAt100)}
		}
		return rowsRun(rows), nil
	}}, nil
}

// recEvaluation is evaluate's rows under a protocol, and the notices that
// explain the rows left NULL.
type recEvaluation struct {
	rows  []recommender.Metrics
	notes []string
}

// evaluation returns the rows of protocol, measuring them at the first
// call and keeping them; the notices go out with each call.
func (s *storedRec) evaluation(ctx context.Context, c *call, protocol string) ([]recommender.Metrics, error) {
	d := &s.derived
	d.mu.Lock()
	ev, ok := d.evals[protocol]
	d.mu.Unlock()
	if !ok {
		var err error
		if ev, err = s.measure(ctx, protocol); err != nil {
			return nil, err
		}
		d.mu.Lock()
		if d.evals == nil {
			d.evals = map[string]recEvaluation{}
		}
		d.evals[protocol] = ev
		d.mu.Unlock()
	}
	for _, note := range ev.notes {
		c.caller.Notice(note)
	}
	return ev.rows, nil
}

// measure measures the model, the baselines and EASE under protocol, in
// recommender.Evaluate's order with EASE last. EASE fits the protocol's
// training ratings; under protocolRatings that is the fit serving uses.
func (s *storedRec) measure(ctx context.Context, protocol string) (recEvaluation, error) {
	cfg := s.Model.Config
	p := recommender.RatingsProtocol(s.Train, s.Test, cfg.Relevant, evaluateUsers, cfg.Seed)
	model := s.Model
	var ev recEvaluation
	if protocol == protocolUsers {
		held := s.heldOutUsers()
		if held == nil {
			held, model = recommender.HeldOutUsers(s.Train, s.Test, recommender.DefaultHoldOut, cfg.Seed), nil
			ev.notes = append(ev.notes, fmt.Sprintf("evaluate %s: it was trained on every user, so protocol := 'users' cannot measure it; "+
				"the baselines and ease are measured on %.0f %% of the users, left out of their fit", s.ref, 100*recommender.DefaultHoldOut))
		}
		p = recommender.UsersProtocol(s.Train, s.Test, held, cfg.Relevant, evaluateUsers, cfg.Seed)
	}
	var err error
	if ev.rows, err = p.Measure(ctx, model); err != nil {
		return ev, err
	}
	if model == nil {
		ev.rows = append([]recommender.Metrics{unmeasured(recommender.Kind)}, ev.rows...)
	}
	var e *recommender.EASE
	if protocol == protocolUsers {
		e, err = recommender.FitEASE(ctx, p.Base(), cfg.Relevant, cfg.Seed)
	} else {
		e, err = s.easeFit(ctx)
	}
	var tooMany *recommender.TooManyItemsError
	switch {
	case errors.As(err, &tooMany):
		ev.notes = append(ev.notes, fmt.Sprintf("evaluate %s: ease skipped: %d items have at least %d relevant training ratings, and it fits at most %d",
			s.ref, tooMany.Items, tooMany.MinCount, tooMany.Limit))
		ev.rows = append(ev.rows, unmeasured(recommender.EASEMethod))
		return ev, nil
	case err != nil:
		return ev, err
	}
	m, err := p.MeasureEASE(e)
	ev.rows = append(ev.rows, m)
	return ev, err
}

// unmeasured is the row of a method that could not be measured.
func unmeasured(method string) recommender.Metrics {
	nan := math.NaN()
	return recommender.Metrics{Method: method, RMSE: nan, RecallAt10: nan, NDCGAt10: nan, RecallAt20: nan, NDCGAt100: nan}
}

// heldOutUsers are the users the version's training left out
// (train_recommender's hold_out_users), for protocol 'users'; nil when it
// trained on every user.
func (s *storedRec) heldOutUsers() []int {
	if f := s.Model.Config.HoldOutUsers; f > 0 {
		return recommender.HeldOutUsers(s.Train, s.Test, f, s.Model.Config.Seed)
	}
	return nil
}
