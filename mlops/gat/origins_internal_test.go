package gat

import (
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestAnchorStartsBySize checks where anchor "auto" scores its
// candidates: over the rolling origins up to CatalogueEntities entities,
// on the validation span alone (its first row the one origin) above
// them, and as Config.AnchorOrigins says whatever the size.
func TestAnchorStartsBySize(t *testing.T) {
	cfg := DefaultConfig()
	train := make([]int, 100)
	for i := range train {
		train[i] = i + 5
	}
	const valLen = 16
	rolling := cvStarts(train, valLen, cfg.horizon())
	if len(rolling) != 4 {
		t.Fatalf("rolling origins %v, want 4", rolling)
	}
	only := []int{len(train) - valLen}
	for _, c := range []struct {
		rule string
		n    int
		want []int
	}{
		{"", 3, rolling},
		{"", CatalogueEntities, rolling},
		{"", CatalogueEntities + 1, only},
		{"", 100_000, only},
		{AnchorOriginsRolling, CatalogueEntities + 1, rolling},
		{AnchorOriginsValidation, 3, only},
	} {
		cfg.AnchorOrigins = c.rule
		if got := anchorStarts(cfg, c.n, train, valLen); !slices.Equal(got, c.want) {
			t.Errorf("anchor_origins %q, %d entities: origins %v, want %v", c.rule, c.n, got, c.want)
		}
		_, bySize := AnchorOriginsFor(cfg, c.n)
		if want := c.rule == "" && c.n > CatalogueEntities; bySize != want {
			t.Errorf("anchor_origins %q, %d entities: by size %v, want %v", c.rule, c.n, bySize, want)
		}
	}
	cfg.AnchorOrigins = "every"
	if err := cfg.Validate(); err == nil {
		t.Error("anchor_origins 'every' validated")
	}
}

// TestChosenAnchorFitsReused checks that the fits of anchor "auto"'s
// choice on the training rows are kept for the ladder on the same rows
// (Anchor.reuse), under both anchor origins, so that the ladder does not
// fit the chosen kinds again.
func TestChosenAnchorFitsReused(t *testing.T) {
	m := series.Synthetic(4, 84, 3, 4)
	for _, rule := range AnchorOriginRules() {
		cfg := DefaultConfig()
		cfg.Season, cfg.AnchorOrigins = 4, rule
		fit, val, _, err := cfg.Samples(m)
		if err != nil {
			t.Fatal(err)
		}
		a, err := fitAnchor(cfg, m, fit, val)
		if err != nil {
			t.Fatal(err)
		}
		kinds := []string{a.Kind}
		if a.Kind == AnchorCombination {
			kinds = nil
			for _, member := range a.Members {
				kinds = append(kinds, member.Kind)
			}
		}
		train := slices.Concat(fit, val)
		opt := baseline.Options{Window: cfg.Window, Season: cfg.Season}
		checked := 0
		for _, kind := range kinds {
			if kind == AnchorLastValue || kind == string(baseline.KindARDiff) {
				continue
			}
			checked++
			if a.reuse(baseline.Kind(kind), m, train, opt) == nil {
				t.Errorf("origins %s: anchor %s: its %s fit on the training rows is not kept for the ladder", rule, a, kind)
			}
		}
		t.Logf("origins %s: anchor %s, %d fitted kinds checked", rule, a, checked)
	}
}
