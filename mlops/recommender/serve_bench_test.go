package recommender_test

import (
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// BenchmarkSimilar measures Model.Similar at k = 10 over MovieLens-25M's
// 62,423 items for the default ranking network (served), and beside it
// ReferenceSimilar, the computation it replaced, which made every item's
// embedding first (reference): similar_items' part of the server's time
// and memory per call.
func BenchmarkSimilar(b *testing.B) {
	m, err := recommender.InitialModel(recommender.DefaultRankingConfig(), shaped(1, 1000, 62423, 20000))
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []struct {
		name    string
		similar func(int, int) []recommender.Scored
	}{{"served", m.Similar}, {"reference", m.ReferenceSimilar}} {
		b.Run(path.name, func(b *testing.B) {
			b.ReportAllocs()
			item := 0
			for b.Loop() {
				if got := path.similar(item, 10); len(got) != 10 {
					b.Fatalf("%d items, want 10", len(got))
				}
				item = (item + 7919) % m.Items
			}
		})
	}
}
