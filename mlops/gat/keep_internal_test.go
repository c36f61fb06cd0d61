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
