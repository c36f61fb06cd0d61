//go:build duckdb_arrow

package functions

import (
	"fmt"

	"github.com/mallard/mallard/mlops/classifier/clsrun"
	"github.com/mallard/mallard/sqlstate"
)

// clsResumeArgs reads the version resume := names (the newest with saved
// weights if it names none) and returns the call's arguments as if it had
// also given each option it left out as that version was trained with.
// model defaults to the resumed model's name.
func clsResumeArgs(c *call, fn, kind string, a *supervisedArgs) (*clsrun.Start, error) {
	from, prev, err := loadClsStart(c, fn, kind, a.Resume)
	if err != nil {
		return nil, err
	}
	var features []string
	for _, f := range prev.Columns.Features {
		features = append(features, f.Name)
	}
	// The arguments that shape the network and its input: a resumed run has
	// its checkpoint's, and a call may repeat them, not change them. A
	// split or shape the version had none of is nil.
	for _, arch := range []struct{ field, had, want any }{
		{&a.Architecture, prev.Architecture, a.Architecture}, {&a.Hidden, prev.Hidden, a.Hidden}, {&a.Dropout, prev.Dropout, a.Dropout},
		{&a.Features, features, a.Features}, {&a.Shape, orNil(prev.Columns.Shape, prev.Columns.Shape != nil), a.Shape},
		{&a.Scale, prev.Scale, a.Scale}, {&a.Split, orNil(prev.Columns.Split, prev.Columns.Split != ""), a.Split},
	} {
		if name := a.name(arch.field); a.explicit(arch.field) && fmt.Sprint(arch.want) != fmt.Sprint(arch.had) {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %s differs from %s of %s, which resume continues",
				fn, name, argText(arch.want), argText(arch.had), from.Ref).WithHint("Leave %s out to keep the checkpoint's.", name)
		}
	}
	keepTrained(a, prev, features)
	if a.Model == "" {
		a.Model = from.Ref.Name
	}
	return from, nil
}

// orNil is v, or nil when the version had none (!had).
func orNil(v any, had bool) any {
	if !had {
		return nil
	}
	return v
}

// keepTrained sets each argument the call left out as the version prev
// records was trained with.
func keepTrained(a *supervisedArgs, prev clsrun.Params, features []string) {
	g := &a.given
	keep(g, &a.Architecture, prev.Architecture)
	keep(g, &a.Hidden, prev.Hidden)
	keep(g, &a.Dropout, prev.Dropout)
	keep(g, &a.Scale, prev.Scale)
	keep(g, &a.Target, prev.Columns.Target)
	keep(g, &a.Epochs, prev.Epochs)
	keep(g, &a.LR, prev.LR)
	keep(g, &a.Optimizer, prev.Optimizer)
	keep(g, &a.Momentum, prev.Momentum)
	keep(g, &a.BatchSize, prev.BatchSize)
	keep(g, &a.WeightDecay, prev.WeightDecay)
	keep(g, &a.Patience, prev.Patience)
	if a.Ranks <= 1 { // across ranks workers is each rank's, and the version's the total
		keep(g, &a.Workers, prev.Workers)
	}
	keep(g, &a.Seed, prev.Seed)
	keep(g, &a.ValidationFraction, prev.ValidationFraction)
	keep(g, &a.TestFraction, prev.TestFraction)
	keep(g, &a.ClassWeight, map[bool]string{true: "balanced", false: "none"}[prev.ClassWeight == "balanced"])
	keep(g, &a.MaxCategories, max(prev.MaxCategories, 1))
	keep(g, &a.Features, features)
	if prev.Columns.Split != "" {
		keep(g, &a.Split, prev.Columns.Split)
	}
	if prev.Columns.Shape != nil {
		keep(g, &a.Shape, prev.Columns.Shape)
	}
}

// loadClsStart reads the version text names (see loadResumed), its
// training state and its hyperparameters (see clsrun.DecodeStart).
func loadClsStart(c *call, fn, kind, text string) (*clsrun.Start, clsrun.Params, error) {
	m, v, err := loadResumed(c, fn, kind, text)
	if err != nil {
		return nil, clsrun.Params{}, err
	}
	return clsrun.DecodeStart(fn, m.Ref, v.Hyperparameters, m.Artifact, v.Fingerprint)
}
