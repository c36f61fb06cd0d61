package gat_test

import (
	"testing"

	"github.com/mallard/mallard/mlops/gat"
)

// TestFLOPsPerEpochByHand checks the count of a one-layer network, a
// 1 -> 1 GATConv with an identity skip. On two nodes there are 4 attention
// slots (2 edges, 2 self loops); per sample the graph is 6*2 + 2*2*2 = 20,
// the forward 4 + 8 + 32 + 8 + 2 + 2 = 56, the loss 6 and the backward
// 16 + 20 + 16 + 16 + 2 + 8 + 1 + 2 = 81. On three nodes with one neighbour
// there are 6 slots; the graph is 18 + 18 = 36, the forward
// 6 + 12 + 48 + 12 + 3 + 3 = 84, the loss 9 and the backward
// 24 + 30 + 24 + 24 + 3 + 12 + 1 + 3 = 121. The 6 parameters cost 5 each
// per batch.
func TestFLOPsPerEpochByHand(t *testing.T) {
	cfg := gat.Config{Window: 1, Heads: 1, BatchSize: 2}
	tests := []struct {
		name                  string
		entities, train, test int
		neighbors             int
		want                  float64
	}{
		{name: "one training sample", entities: 2, train: 1, want: (20 + 56 + 6 + 81) + (20 + 56 + 6) + 5*6},
		{name: "three training samples, two batches", entities: 2, train: 3, want: 3*(20+56+6+81) + 3*(20+56+6) + 2*5*6},
		{name: "test samples are evaluated", entities: 2, train: 1, test: 2, want: (20 + 56 + 6 + 81) + 3*(20+56+6) + 5*6},
		{name: "neighbors beyond n-1 keep every edge", entities: 2, train: 1, neighbors: 5, want: (20 + 56 + 6 + 81) + (20 + 56 + 6) + 5*6},
		{name: "one neighbor of two", entities: 3, train: 1, neighbors: 1, want: (36 + 84 + 9 + 121) + (36 + 84 + 9) + 5*6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg
			c.Neighbors = tt.neighbors
			if got := gat.FLOPsPerEpoch(c, tt.entities, tt.train, tt.test); got != tt.want {
				t.Errorf("FLOPsPerEpoch = %v, want %v", got, tt.want)
			}
		})
	}
}
