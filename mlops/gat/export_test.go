package gat

import "github.com/mallard/mallard/mlops/baseline"

// ChooseAnchor is chooseAnchor, for the external tests' studies.
var ChooseAnchor = chooseAnchor

// Forecaster is the anchor's fitted baseline (nil for the last value),
// for the external tests' studies.
func (a *Anchor) Forecaster() (baseline.Forecaster, error) { return a.forecaster() }
