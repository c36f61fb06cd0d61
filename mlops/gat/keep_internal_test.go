package gat

import "testing"

// TestSignRejects checks the one-sided sign test against binomial tails:
// P(X >= 15 | n = 20) = 0.0207 and P(X >= 14 | n = 20) = 0.0577.
func TestSignRejects(t *testing.T) {
	for _, c := range []struct {
		wins, losses int
		want         bool
	}{{15, 5, true}, {14, 6, false}, {0, 0, false}, {5, 0, true}, {4, 0, false}, {3, 17, false}} {
		if got := signRejects(c.wins, c.losses, 0.05); got != c.want {
			t.Errorf("signRejects(%d, %d, 0.05) = %v, want %v", c.wins, c.losses, got, c.want)
		}
	}
}

// TestOneSEKeeps checks the one-standard-error rule on loss differentials
// worked by hand: the mean must be below minus its standard error, the
// square root of the (Newey-West weighted) variance over the rows.
func TestOneSEKeeps(t *testing.T) {
	step := []float64{1, 1, 1, 1, -1, -1, -1, -1} // cov0 8/7, cov1 5/7, cov2 2/7, cov3 -1/7
	shifted := make([]float64, len(step))
	for i, v := range step {
		shifted[i] = v - 0.45
	}
	for _, c := range []struct {
		name string
		d    []float64
		lags int
		want bool
	}{
		{"constant gain", []float64{-1, -1, -1}, 0, true},
		{"mean -2, se 1", []float64{-3, -1}, 0, true},
		{"mean -1, se 1: not beyond", []float64{-2, 0}, 0, false},
		{"a loss", []float64{1, 2, 3}, 0, false},
		{"one row", []float64{-5}, 0, false},
		{"no rows", nil, 0, false},
		{"mean -0.45, se 0.378 without lags", shifted, 0, true},
		{"mean -0.45, se 0.551 with 3 lags", shifted, 3, false},
	} {
		if got := oneSEKeeps(c.d, c.lags); got != c.want {
			t.Errorf("%s: oneSEKeeps(%v, %d) = %v, want %v", c.name, c.d, c.lags, got, c.want)
		}
	}
}

// TestGateOrigins checks where KeepOneSEHorizons adds its second test:
// over steps 1..season capped at the validation rows less one, only for a
// recursive network in one process whose season is above its horizon.
func TestGateOrigins(t *testing.T) {
	val := []int{50, 51, 52, 53, 54, 55, 56, 57, 58, 59}
	base := Config{KeepNetwork: KeepOneSEHorizons, Season: 4}
	for _, c := range []struct {
		name   string
		cfg    func(Config) Config
		shard  *sharding
		steps  int
		origin int
	}{
		{"season 4", func(c Config) Config { return c }, nil, 4, 7},
		{"season 12 capped at 9", func(c Config) Config { c.Season = 12; return c }, nil, 9, 2},
		{"no season", func(c Config) Config { c.Season = 0; return c }, nil, 0, 0},
		{"horizon 4", func(c Config) Config { c.Horizon = 4; return c }, nil, 0, 0},
		{"one_se", func(c Config) Config { c.KeepNetwork = KeepOneSE; return c }, nil, 0, 0},
		{"direct", func(c Config) Config { c.Horizon, c.Season, c.Strategy = 2, 7, StrategyDirect; return c }, nil, 0, 0},
		{"sharded", func(c Config) Config { return c }, &sharding{}, 0, 0},
	} {
		origins, steps := gateOrigins(c.cfg(base), val, c.shard)
		if steps != c.steps || len(origins) != c.origin {
			t.Errorf("%s: %d origins of %d steps, want %d of %d", c.name, len(origins), steps, c.origin, c.steps)
		}
	}
}
