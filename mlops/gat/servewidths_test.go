package gat_test

import (
	"testing"
)

// TestHalfWidthsOfOneEntity checks that one entity's half-widths, read
// from the state alone, are bit for bit that entity's column of every
// entity's, over steps past the kept ones (grown by the square root of the
// step) and at two levels, for every method that keeps widths; and that
// the other entities' columns are left 0.
func TestHalfWidthsOfOneEntity(t *testing.T) {
	m, _, st, _, _ := storedState(t)
	const steps = 15
	for _, ms := range st.Methods {
		for _, level := range []float64{0.8, 0.95} {
			all, ok := st.HalfWidths(ms.Name, steps, level)
			if !ok {
				continue
			}
			for e := range m.N {
				one, ok := st.HalfWidthsOf(ms.Name, steps, level, e)
				if !ok || len(one) != steps {
					t.Fatalf("%s entity %d: %d steps, ok %v", ms.Name, e, len(one), ok)
				}
				for k := range steps {
					for i, v := range one[k] {
						if want := all[k][e]; i == e && v != want || i != e && v != 0 {
							t.Fatalf("%s level %g entity %d step %d column %d: %v (all %v)", ms.Name, level, e, k+1, i, v, all[k][i])
						}
					}
				}
			}
		}
	}
}
