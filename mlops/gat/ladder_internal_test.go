package gat

import (
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
)

// TestLadderBySize checks which methods the ladder fits and anchor
// "auto" weighs: every one up to CatalogueEntities entities, all but
// arima above them, and as Config.Ladder says whatever the size; and
// that ladder 'without_arima' with an anchor that fits arima, or an
// unknown ladder, does not validate.
func TestLadderBySize(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Season = 12
	for _, c := range []struct {
		rule   string
		n      int
		arima  bool
		bySize bool
	}{
		{"", 3, true, false},
		{"", CatalogueEntities, true, false},
		{"", CatalogueEntities + 1, false, true},
		{"", 100_000, false, true},
		{LadderFull, CatalogueEntities + 1, true, false},
		{LadderWithoutARIMA, 3, false, false},
	} {
		cfg.Ladder = c.rule
		kinds := ladderKinds(cfg, c.n)
		if got := slices.Contains(kinds, baseline.KindARIMA); got != c.arima {
			t.Errorf("ladder %q, %d entities: kinds %v, arima there %v, want %v", c.rule, c.n, kinds, got, c.arima)
		}
		if len(kinds) != len(baseline.Kinds())-1 && !c.arima {
			t.Errorf("ladder %q, %d entities: kinds %v, want all but arima", c.rule, c.n, kinds)
		}
		cands := candidateKinds(cfg, c.n)
		if got := slices.Contains(cands, string(baseline.KindARIMA)); got != c.arima {
			t.Errorf("ladder %q, %d entities: candidates %v, arima there %v, want %v", c.rule, c.n, cands, got, c.arima)
		}
		if _, bySize := LadderFor(cfg, c.n); bySize != c.bySize {
			t.Errorf("ladder %q, %d entities: by size %v, want %v", c.rule, c.n, bySize, c.bySize)
		}
	}
	cfg.Ladder = "no_arima"
	if err := cfg.Validate(); err == nil {
		t.Error("ladder 'no_arima' validated")
	}
	cfg.Ladder = LadderWithoutARIMA
	for _, anchor := range []string{string(baseline.KindARIMA), AnchorETSARIMATheta, AnchorETSARIMAThetaMedian} {
		cfg.Anchor = anchor
		if err := cfg.Validate(); err == nil {
			t.Errorf("ladder 'without_arima' with anchor %q validated", anchor)
		}
	}
	cfg.Anchor = string(baseline.KindETS)
	if err := cfg.Validate(); err != nil {
		t.Errorf("ladder 'without_arima' with anchor 'ets': %v", err)
	}
}
