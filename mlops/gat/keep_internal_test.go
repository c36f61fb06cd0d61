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
