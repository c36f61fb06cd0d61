//go:build duckdb_arrow

package functions

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/recommender/recrun"
	"github.com/mallard/mallard/sqlstate"
)

// resumeArgs reads the version that resume := names (the model's newest
// with saved weights, if it names no version) and returns the call's
// arguments as if it had also given each option it left out as that
// version was trained with: its architecture, its data's columns and
// split, its optimiser's and evaluation's options, and its workers when
// the run stays in this process (ranks := N takes workers per rank, as a
// new run does). model defaults to the resumed model's name. It refuses
// an architecture other than the checkpoint's.
func resumeArgs(c *call, o *trainRecArgs) (*recrun.Start, error) {
	from, prev, err := loadRecStart(c, o.Resume)
	if err != nil {
		return nil, err
	}
	if err := o.sameArchitecture(from, prev); err != nil {
		return nil, err
	}
	o.keepOptions(prev)
	if o.Model == "" {
		o.Model = from.Ref.Name
	}
	return from, nil
}

// sameArchitecture refuses arguments that shape the network other than
// the checkpoint's: a resumed run has its checkpoint's, and a call may
// repeat them, not change them.
func (o *trainRecArgs) sameArchitecture(from *recrun.Start, prev recrun.Params) error {
	objective := cmp.Or(prev.Objective, recommender.Rating)
	for _, arch := range []struct{ field, had, want any }{{&o.Objective, objective, o.Objective},
		{&o.Hidden, prev.Hidden, o.Hidden}, {&o.Activation, prev.Activation, o.Activation}, {&o.Output, prev.Output, o.Output}} {
		if name := o.name(arch.field); o.explicit(arch.field) && fmt.Sprint(arch.want) != fmt.Sprint(arch.had) {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %s differs from %s of %s, which resume continues",
				trainRecommenderName, name, argText(arch.want), argText(arch.had), from.Ref).
				WithHint("Leave %s out to keep the checkpoint's.", name)
		}
	}
	return nil
}

// keepOptions sets each option the call left out as prev, the resumed
// version's parameters, has it (see resumeArgs).
func (o *trainRecArgs) keepOptions(prev recrun.Params) {
	objective := cmp.Or(prev.Objective, recommender.Rating)
	g := &o.given
	keep(g, &o.Objective, objective)
	keep(g, &o.Hidden, prev.Hidden)
	keep(g, &o.Activation, prev.Activation)
	keep(g, &o.Output, prev.Output)
	keep(g, &o.Epochs, prev.Epochs)
	keep(g, &o.LR, prev.LR)
	keep(g, &o.Optimizer, prev.Optimizer)
	keep(g, &o.BatchSize, prev.BatchSize)
	keep(g, &o.L2, prev.L2)
	keep(g, &o.Seed, prev.Seed)
	keep(g, &o.RankUsers, prev.RankUsers)
	keep(g, &o.HoldOutUsers, prev.HoldOutUsers)
	keep(g, &o.TestFraction, prev.TestFraction)
	keep(g, &o.MinUserRatings, prev.MinUserRatings)
	keep(g, &o.Duplicates, prev.Duplicates)
	keep(g, &o.User, prev.User)
	keep(g, &o.Item, prev.Item)
	implicit := prev.Implicit
	if o.explicit(&o.Implicit) {
		implicit = o.Implicit
	}
	keep(g, &o.Implicit, prev.Implicit)
	if o.Ranks <= 1 {
		keep(g, &o.Workers, prev.Workers)
	}
	if !implicit { // implicit data have no rating column, and every interaction is relevant
		keep(g, &o.Rating, prev.Rating)
		keep(g, &o.Relevant, prev.Relevant)
	}
	if recommender.IsRanking(prev.Objective) {
		keep(g, &o.Dropout, prev.Dropout)
		keep(g, &o.Negatives, prev.Negatives)
	}
	if prev.Objective == recommender.RankingVAE {
		keep(g, &o.AnnealCap, prev.AnnealCap)
	}
}

// argText is an argument's value as a call writes it.
func argText(v any) string {
	switch v := v.(type) {
	case string:
		return quote(v)
	case []int:
		parts := make([]string, len(v))
		for i, n := range v {
			parts[i] = strconv.Itoa(n)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// loadRecStart reads the model version ref names, and its hyperparameters.
func loadRecStart(c *call, text string) (*recrun.Start, recrun.Params, error) {
	m, v, err := loadResumed(c, trainRecommenderName, recommenderKind, text)
	if err != nil {
		return nil, recrun.Params{}, err
	}
	return recrun.LoadStart(m.Ref, v.Fingerprint, v.Hyperparameters, m.Artifact)
}
