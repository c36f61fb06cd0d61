package series_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// checkNearLists fails unless got lists keep distinct sources for each of
// n targets, in increasing order, none the target itself.
func checkNearLists(t *testing.T, name string, got []int32, n, keep int) {
	t.Helper()
	if len(got) != n*keep {
		t.Fatalf("%s: %d sources for %d targets of %d", name, len(got), n, keep)
	}
	for j := range n {
		src := got[j*keep : (j+1)*keep]
		for c, i := range src {
			if int(i) == j || i < 0 || int(i) >= n || c > 0 && src[c-1] >= i {
				t.Fatalf("%s: target %d lists %v: not %d distinct others in increasing order", name, j, src, keep)
			}
		}
	}
}

// TestNearAllOverProperties: on the tie-ridden random panel (a constant
// entity, a duplicate, a mirror) and on Synthetic's series, the
// approximate search lists keep distinct other sources per target, the
// same at 1, 2, 3 and 7 workers and at every call; with keep <= 0 or
// keep >= N-1 it is StrongestAllOver; where every pair is a candidate
// (N-1 at most the span) it is the exact graph.
func TestNearAllOverProperties(t *testing.T) {
	near := series.Near{Tables: 3, Span: 8, Rounds: 1, Seed: 5}
	for _, c := range []struct {
		name   string
		m      series.Matrix
		window int
	}{
		{"random", randomPanel(203, 14), 4},
		{"synthetic", series.Synthetic(1500, 30, 2, 12), 12},
	} {
		var w series.Windows
		w.Set(c.m, c.m.T, c.window)
		for _, keep := range []int{1, 3, 10} {
			one := w.NearAllOver(nil, keep, 1, near)
			checkNearLists(t, c.name, one, c.m.N, keep)
			for _, workers := range []int{1, 2, 3, 7} {
				if got := w.NearAllOver(nil, keep, workers, near); !slices.Equal(got, one) {
					t.Fatalf("%s keep %d: %d workers list other sources than 1", c.name, keep, workers)
				}
			}
		}
		for _, keep := range []int{0, -1, c.m.N - 1, c.m.N + 5} {
			if got, want := w.NearAllOver(nil, keep, 2, near), w.StrongestAll(nil, keep); !slices.Equal(got, want) {
				t.Errorf("%s keep %d: not StrongestAll's lists", c.name, keep)
			}
		}
	}
	small := series.Synthetic(9, 14, 1)
	var w series.Windows
	w.Set(small, 14, 4)
	if got, want := w.NearAllOver(nil, 3, 2, near), w.StrongestAll(nil, 3); !slices.Equal(got, want) {
		t.Errorf("9 entities, span 8: %v, want the exact %v", got, want)
	}
}

// plantedPanel is n Gaussian noise series of rows rows in which
// entity 2p+1 is entity 2p plus a tenth of its own noise, negated for
// every other p: pairs of |correlation| above 0.99, half of them negative.
func plantedPanel(n, rows int) series.Matrix {
	r := rand.New(rand.NewPCG(43, 7))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = r.NormFloat64()
	}
	for p := 0; 2*p+1 < n; p++ {
		sign := 1 - 2*float64(p%2)
		for tr := range rows {
			m.Values[tr*n+2*p+1] = sign * (m.Values[tr*n+2*p] + 0.1*m.Values[tr*n+2*p+1])
		}
	}
	return m
}

// TestNearAllOverFindsPlanted: with one source per target the search
// finds the planted partner (|correlation| above 0.99, the sign either
// way) of at least 98% of 4,000 entities with windows of 12 rows, where
// two random windows rarely correlate above 0.9; and with keep 10 on
// Synthetic's series at the default window of 4 it finds at least 95% of
// the exact top-10 of 300 targets.
func TestNearAllOverFindsPlanted(t *testing.T) {
	const n = 4000
	m := plantedPanel(n, 12)
	var w series.Windows
	w.Set(m, 12, 12)
	got := w.NearAllOver(nil, 1, 2, series.DefaultNear)
	found := 0
	for j := range n {
		if int(got[j]) == j^1 {
			found++
		}
	}
	if found < n*98/100 {
		t.Errorf("planted partners found for %d of %d entities, want at least 98%%", found, n)
	}
	s := series.Synthetic(n, 40, 3, 12)
	w.Set(s, 40, 4)
	const keep = 10
	approx := w.NearAllOver(nil, keep, 2, series.DefaultNear)
	hits, total := 0, 0
	for j := 0; j < n; j += n / 300 {
		for _, i := range w.Strongest(nil, j, keep) {
			if slices.Contains(approx[j*keep:(j+1)*keep], i) {
				hits++
			}
			total++
		}
	}
	if hits < total*95/100 {
		t.Errorf("recall of the exact top-%d on Synthetic: %d of %d, want at least 95%%", keep, hits, total)
	}
}
