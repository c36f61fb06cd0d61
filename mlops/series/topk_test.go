package series_test

import (
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// checkStrongestAll compares, at every target row of m, the graph
// StrongestAll and Corr give with the one Edges keeps of Correlation's
// N x N matrix: the same edges in the same order, and weights within 1e-12.
func checkStrongestAll(t *testing.T, name string, m series.Matrix, window int, keeps []int) {
	t.Helper()
	corr := make([]float64, m.N*m.N)
	var w series.Windows
	for at := window; at <= m.T; at++ {
		series.Correlation(m, at, window, corr)
		w.Set(m, at, window)
		for _, keep := range keeps {
			src, dst, attr := series.Edges(corr, m.N, keep)
			got := w.StrongestAll(nil, keep)
			for _, workers := range []int{2, 3, 7} {
				if over := w.StrongestAllOver(nil, keep, workers); !slices.Equal(over, got) {
					t.Fatalf("%s row %d keep %d: %d workers list other sources than one", name, at, keep, workers)
				}
			}
			if len(got) != len(src) {
				t.Fatalf("%s row %d keep %d: %d edges, Edges %d", name, at, keep, len(got), len(src))
			}
			k := max(0, min(keep, m.N-1))
			for e, i := range got {
				j := e / k
				if int(i) != src[e] || j != dst[e] {
					t.Fatalf("%s row %d keep %d: edge %d is %d->%d, Edges %d->%d", name, at, keep, e, i, j, src[e], dst[e])
				}
				if d := math.Abs(w.Corr(int(i), j) - attr[e]); !(d <= 1e-12) {
					t.Fatalf("%s row %d keep %d: edge %d->%d weighs %v, Edges %v", name, at, keep, i, j, w.Corr(int(i), j), attr[e])
				}
			}
		}
	}
}

// randomPanel is a seeded panel of n entities over rows rows with the
// ties a constant entity, a duplicate and a mirror make.
func randomPanel(n, rows int) series.Matrix {
	r := rand.New(rand.NewPCG(4, 11))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = r.NormFloat64()
	}
	for tr := range rows {
		m.Values[tr*n+5] = 2
		m.Values[tr*n+70] = m.Values[tr*n+3]
		m.Values[tr*n+130] = -m.Values[tr*n+3]
	}
	return m
}

// TestStrongestAllMatchesEdges: the blocked top-k graph is the dense
// one's on a random panel of more entities than a block (and not a
// multiple of it), windows of 1, 4 and 8 rows.
func TestStrongestAllMatchesEdges(t *testing.T) {
	m := randomPanel(203, 14)
	for _, window := range []int{1, 4, 8} {
		checkStrongestAll(t, "random", m, window, []int{1, 3, 10, 201, 202, 300})
	}
}

// TestStrongestAllUnemployment: the same on the unemployment example
// data (examples/data), every target row, the default window of 4.
func TestStrongestAllUnemployment(t *testing.T) {
	m := unemploymentMatrix(t)
	checkStrongestAll(t, "unemployment", m, 4, []int{1, 2, 3, 5, 10})
}

// TestStrongestAllLongWindow: past 64 rows, where Correlation's product
// may differ in the last bits, StrongestAll lists what Strongest lists
// target by target.
func TestStrongestAllLongWindow(t *testing.T) {
	m := randomPanel(150, 80)
	var w series.Windows
	w.Set(m, 80, 70)
	for _, keep := range []int{1, 4, 10} {
		var want []int32
		for j := range m.N {
			want = w.Strongest(want, j, keep)
		}
		if got := w.StrongestAll(nil, keep); !slices.Equal(got, want) {
			t.Errorf("keep %d: StrongestAll differs from Strongest", keep)
		}
	}
}

// unemploymentMatrix reads the example data set (examples/data) as a
// month x industry matrix, industries sorted by name.
func unemploymentMatrix(t *testing.T) series.Matrix {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "examples", "data", "unemployment-across-industries.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	entities, times := map[string]int{}, map[int]int{}
	for _, r := range recs[1:] {
		entities[r[0]] = 0
		y, _ := strconv.Atoi(r[1])
		mo, _ := strconv.Atoi(r[2])
		times[y*12+mo] = 0
	}
	names := make([]string, 0, len(entities))
	for n := range entities {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		entities[n] = i
	}
	keys := make([]int, 0, len(times))
	for k := range times {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for i, k := range keys {
		times[k] = i
	}
	m := series.Matrix{T: len(keys), N: len(names), Values: make([]float64, len(keys)*len(names))}
	for _, r := range recs[1:] {
		y, _ := strconv.Atoi(r[1])
		mo, _ := strconv.Atoi(r[2])
		v, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		m.Values[times[y*12+mo]*m.N+entities[r[0]]] = v
	}
	return m
}
