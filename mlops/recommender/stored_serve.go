package recommender

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
)

// EvaluateUsers caps the users whose rankings an evaluation of a stored
// version averages (a sample chosen by the seed): ranking scores every
// item for a user, so ranking 162,000 users of 62,000 items would cost
// more than an epoch.
const EvaluateUsers = 10_000

// The protocols a stored version is evaluated by (see Stored.Evaluate).
const (
	// ProtocolRatings is the per-rating split the version was trained on:
	// each user's training ratings in, its test ratings scored.
	ProtocolRatings = "ratings"
	// ProtocolUsers is strong generalisation (see UsersProtocol): users
	// none of whose ratings was trained on, 80 % of each one's ratings
	// in, the rest scored.
	ProtocolUsers = "users"
)

// derived is what serving computes from a stored version once and keeps
// with it: EASE fitted to its training ratings, and its evaluations by
// protocol. mu is held while one is computed, so that concurrent callers
// wait for one fit rather than each running it.
type derived struct {
	mu      sync.Mutex
	ease    *EASE
	easeErr error // a *TooManyItemsError: the same data is refused again
	evals   map[string]Evaluation
}

// EASE returns EASE fitted to the version's training ratings with its
// relevant and seed (see FitEASE), fitting it at the first call. A
// cancelled fit is not kept.
func (a *Stored) EASE(ctx context.Context) (*EASE, error) {
	d := &a.derived
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ease != nil || d.easeErr != nil {
		return d.ease, d.easeErr
	}
	e, err := FitEASE(ctx, a.Train, a.Model.Config.Relevant, a.Model.Config.Seed)
	var tooMany *TooManyItemsError
	switch {
	case errors.As(err, &tooMany):
		d.easeErr = err
	case err == nil:
		d.ease = e
	}
	return e, err
}

// Popular returns the k most popular items (see PopularItems), leaving
// out seen (increasing) with excludeSeen.
func (a *Stored) Popular(seen []int32, k int, excludeSeen bool) []Scored {
	var out []Scored
	for _, r := range a.PopularItems() {
		if len(out) == k {
			break
		}
		if _, found := slices.BinarySearch(seen, int32(r.Item)); !found || !excludeSeen {
			out = append(out, r)
		}
	}
	return out
}

// HistoryRating is the rating each item of a history goes in with: the
// least that makes an item relevant, within the ratings' scale, so that
// every method reads it as an interaction the user chose.
func (a *Stored) HistoryRating() float32 {
	return float32(math.Min(math.Max(a.Model.Config.Relevant, a.Model.Min), a.Model.Max))
}

// Evaluation is a stored version's model, baselines and EASE measured
// under a protocol, and why rows are left unmeasured (NaN).
type Evaluation struct {
	Rows []Metrics
	// EveryUserTrained is set under ProtocolUsers for a version trained
	// on every user: the model is unmeasured, and the baselines and EASE
	// are measured on DefaultHoldOut of the users, left out of their fit.
	EveryUserTrained bool
	// EASESkipped is set when EASE refused the data; its row is
	// unmeasured.
	EASESkipped *TooManyItemsError
}

// Evaluate returns the evaluation under protocol, measuring it at the
// first call and keeping it.
func (a *Stored) Evaluate(ctx context.Context, protocol string) (Evaluation, error) {
	d := &a.derived
	d.mu.Lock()
	ev, ok := d.evals[protocol]
	d.mu.Unlock()
	if ok {
		return ev, nil
	}
	ev, err := a.measure(ctx, protocol)
	if err != nil {
		return ev, err
	}
	d.mu.Lock()
	if d.evals == nil {
		d.evals = map[string]Evaluation{}
	}
	d.evals[protocol] = ev
	d.mu.Unlock()
	return ev, nil
}

// measure measures the model, the baselines and EASE under protocol, in
// Evaluate's order with EASE last. EASE fits the protocol's training
// ratings; under ProtocolRatings that is the fit serving uses.
func (a *Stored) measure(ctx context.Context, protocol string) (Evaluation, error) {
	cfg := a.Model.Config
	p := RatingsProtocol(a.Train, a.Test, cfg.Relevant, EvaluateUsers, cfg.Seed)
	model := a.Model
	var ev Evaluation
	if protocol == ProtocolUsers {
		held := a.heldOutUsers()
		if held == nil {
			held, model, ev.EveryUserTrained = HeldOutUsers(a.Train, a.Test, DefaultHoldOut, cfg.Seed), nil, true
		}
		p = UsersProtocol(a.Train, a.Test, held, cfg.Relevant, EvaluateUsers, cfg.Seed)
	}
	var err error
	if ev.Rows, err = p.Measure(ctx, model); err != nil {
		return ev, err
	}
	if model == nil {
		ev.Rows = append([]Metrics{unmeasured(Kind)}, ev.Rows...)
	}
	var e *EASE
	if protocol == ProtocolUsers {
		e, err = FitEASE(ctx, p.Base(), cfg.Relevant, cfg.Seed)
	} else {
		e, err = a.EASE(ctx)
	}
	switch {
	case errors.As(err, &ev.EASESkipped):
		ev.Rows = append(ev.Rows, unmeasured(EASEMethod))
		return ev, nil
	case err != nil:
		return ev, err
	}
	m, err := p.MeasureEASE(e)
	ev.Rows = append(ev.Rows, m)
	return ev, err
}

// unmeasured is the row of a method that could not be measured.
func unmeasured(method string) Metrics {
	nan := math.NaN()
	return Metrics{Method: method, RMSE: nan, RecallAt10: nan, NDCGAt10: nan, RecallAt20: nan, NDCGAt100: nan}
}

// heldOutUsers are the users the version's training left out
// (Config.HoldOutUsers), for ProtocolUsers; nil when it trained on
// every user.
func (a *Stored) heldOutUsers() []int {
	if f := a.Model.Config.HoldOutUsers; f > 0 {
		return HeldOutUsers(a.Train, a.Test, f, a.Model.Config.Seed)
	}
	return nil
}
