package recommender

import (
	"context"
	"fmt"
)

// A Protocol is what methods are measured on: the ratings they learn
// from, each measured user's known ratings (a method's input, left out of
// its ranking) and held-out ratings, and the users whose rankings are
// averaged.
type Protocol struct {
	h heldOut
}

// RatingsProtocol is the per-rating protocol Evaluate uses: the
// training ratings are learnt from and are each user's input, the test
// ratings are scored, and the rankings of the users with a relevant test
// item are averaged, or of rankUsers of them chosen by seed when there are
// more and rankUsers is not 0.
func RatingsProtocol(train, test Ratings, relevant float64, rankUsers int, seed uint64) Protocol {
	return Protocol{heldOut{base: train, input: train, scored: test,
		ranked: rankedUsers(test, relevant, rankUsers, seed), relevant: relevant}}
}

// UsersProtocol is the strong-generalisation protocol (see HeldOutUsers)
// over the sides of a Split: the methods learn from the training ratings
// of the users not in users, each of users has FoldInShare of its ratings
// (training and test) as its input and the rest scored, and the rankings
// of those with a relevant scored item are averaged, or of rankUsers of
// them as in RatingsProtocol. The fold-in split is chosen by seed.
func UsersProtocol(train, test Ratings, users []int, relevant float64, rankUsers int, seed uint64) Protocol {
	input, scored := foldIn(train, test, users, seed)
	return Protocol{heldOut{base: WithoutUsers(train, users), input: input, scored: scored,
		ranked: rankedUsers(scored, relevant, rankUsers, seed), relevant: relevant}}
}

// Base is the ratings the methods learn from: what EASE is fitted to.
func (p Protocol) Base() Ratings { return p.h.base }

// Users is the number of users whose rankings are averaged.
func (p Protocol) Users() int { return len(p.h.ranked) }

// Measure measures the model, unless it is nil, and the baselines in
// Evaluate's order. The model must not have been trained on the scored
// ratings: for UsersProtocol, on any rating of the held-out users.
func (p Protocol) Measure(ctx context.Context, model *Model) ([]Metrics, error) {
	if model != nil {
		if err := model.fits(model.Config, p.h.base.Items); err != nil {
			return nil, err
		}
	}
	return evaluateOn(ctx, model, p.h)
}

// MeasureEASE measures e, fitted to p.Base(), on p.
func (p Protocol) MeasureEASE(e *EASE) (Metrics, error) {
	if e.Items != p.h.base.Items {
		return Metrics{}, fmt.Errorf("ease fitted to %d items measured on %d", e.Items, p.h.base.Items)
	}
	return e.metrics(p.h), nil
}
