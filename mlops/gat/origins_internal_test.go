package gat

import (
	"slices"
	"testing"
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
