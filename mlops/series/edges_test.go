package series_test

import (
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// tieCorr is a symmetric 4 x 4 correlation matrix with ties in |corr|.
var tieCorr = []float64{
	1, 0.5, -0.5, 0.2,
	0.5, 1, 0.9, -0.9,
	-0.5, 0.9, 1, 0.1,
	0.2, -0.9, 0.1, 1,
}

func TestEdges(t *testing.T) {
	tests := []struct {
		name      string
		neighbors int
		wantSrc   []int
		wantDst   []int
	}{
		{
			name:      "every pair",
			neighbors: 0,
			wantSrc:   []int{1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2},
			wantDst:   []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3},
		},
		{
			name:      "more neighbours than nodes",
			neighbors: 5,
			wantSrc:   []int{1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2},
			wantDst:   []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3},
		},
		{
			// Node 0: |0.5| ties |-0.5|, so source 1 wins. Node 1: 0.9 ties
			// -0.9, so source 2 wins.
			name:      "one neighbour with ties",
			neighbors: 1,
			wantSrc:   []int{1, 2, 1, 1},
			wantDst:   []int{0, 1, 2, 3},
		},
		{
			name:      "two neighbours",
			neighbors: 2,
			wantSrc:   []int{1, 2, 2, 3, 0, 1, 0, 1},
			wantDst:   []int{0, 0, 1, 1, 2, 2, 3, 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, dst, attr := series.Edges(tieCorr, 4, tt.neighbors)
			if !slices.Equal(src, tt.wantSrc) || !slices.Equal(dst, tt.wantDst) {
				t.Fatalf("Edges = %v -> %v, want %v -> %v", src, dst, tt.wantSrc, tt.wantDst)
			}
			for e := range src {
				if src[e] == dst[e] {
					t.Errorf("edge %d is a self loop", e)
				}
				if attr[e] != tieCorr[src[e]*4+dst[e]] {
					t.Errorf("attr[%d] = %v, want corr[%d][%d]", e, attr[e], src[e], dst[e])
				}
			}
		})
	}
}

func TestEdgesCounts(t *testing.T) {
	const n = 7
	corr := make([]float64, n*n)
	for i := range corr {
		corr[i] = math.Sin(float64(i))
	}
	corr[3*n+0] = math.NaN()
	tests := []struct {
		neighbors int
		want      int
	}{{0, n * (n - 1)}, {-1, n * (n - 1)}, {1, n}, {3, 3 * n}, {6, n * (n - 1)}, {100, n * (n - 1)}}
	for _, tt := range tests {
		src, dst, attr := series.Edges(corr, n, tt.neighbors)
		if len(src) != tt.want || len(dst) != tt.want || len(attr) != tt.want {
			t.Errorf("neighbors %d: %d, %d, %d edges, want %d", tt.neighbors, len(src), len(dst), len(attr), tt.want)
		}
		again, _, _ := series.Edges(corr, n, tt.neighbors)
		if !slices.Equal(src, again) {
			t.Errorf("neighbors %d: sources differ between calls", tt.neighbors)
		}
		if tt.neighbors > 0 && tt.neighbors < n-1 && slices.Contains(src[:tt.neighbors], 3) {
			t.Errorf("neighbors %d: NaN source 3 kept for node 0: %v", tt.neighbors, src[:tt.neighbors])
		}
	}
}

func TestEdgesTinyGraphs(t *testing.T) {
	for _, n := range []int{0, 1} {
		src, _, _ := series.Edges(make([]float64, n*n), n, 2)
		if len(src) != 0 {
			t.Errorf("%d nodes: %d edges, want 0", n, len(src))
		}
	}
}
