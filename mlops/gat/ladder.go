package gat

import (
	"slices"

	"github.com/mallard/mallard/mlops/baseline"
)

// The ladder fits each of its methods twice on every entity (on the
// fitting rows and on the training rows), and anchor "auto" fits each of
// its candidates once more; arima's automatic order search is by far the
// dearest of them (about 25 ms of CPU a series, four times ets, five
// hundred times theta). Past CatalogueEntities entities it is left out of
// the ladder and of the anchor's candidates unless Config.Ladder says
// otherwise, so that a catalogue's per-series cost fits its time budget;
// an anchor named outright (anchor := 'arima', or a fixed combination
// with arima) is fitted as named.

// LadderFull fits every method of the ladder, arima included.
const LadderFull = "full"

// LadderWithoutARIMA leaves arima out of the ladder and out of the
// anchor's candidates.
const LadderWithoutARIMA = "without_arima"

// LadderRules are the values Config.Ladder may take besides "" (by the
// number of entities).
func LadderRules() []string {
	return []string{LadderFull, LadderWithoutARIMA}
}

// LadderFor is the ladder of cfg on n entities: cfg.Ladder when given;
// else full up to CatalogueEntities entities and without arima above,
// with bySize true when the size made that choice and it is not full.
func LadderFor(cfg Config, n int) (rule string, bySize bool) {
	switch {
	case cfg.Ladder != "":
		return cfg.Ladder, false
	case n > CatalogueEntities:
		return LadderWithoutARIMA, true
	}
	return LadderFull, false
}

// LeftOut reports whether the ladder of cfg on n entities leaves the
// method kind out (see LadderFor).
func LeftOut(cfg Config, n int, kind baseline.Kind) bool {
	rule, _ := LadderFor(cfg, n)
	return rule == LadderWithoutARIMA && kind == baseline.KindARIMA
}

// ladderKinds are the kinds of baseline.Kinds the ladder of cfg fits on
// n entities, in that order.
func ladderKinds(cfg Config, n int) []baseline.Kind {
	return slices.DeleteFunc(baseline.Kinds(), func(k baseline.Kind) bool { return LeftOut(cfg, n, k) })
}

// candidateKinds are the single anchors (singleAnchors) that anchor
// "auto", "combination" and "per_entity" weigh on n entities under cfg:
// seasonal naive only with a season, and arima only where the ladder
// fits it.
func candidateKinds(cfg Config, n int) []string {
	return slices.DeleteFunc(singleAnchors(), func(k string) bool {
		return k == string(baseline.KindSeasonalNaive) && cfg.Season <= 1 || LeftOut(cfg, n, baseline.Kind(k))
	})
}

// NeedsARIMA reports whether anchor, named outright, fits arima:
// arima itself, or a fixed combination with it.
func NeedsARIMA(anchor string) bool {
	return anchor == string(baseline.KindARIMA) || slices.Contains(FixedCombinations(), anchor)
}
