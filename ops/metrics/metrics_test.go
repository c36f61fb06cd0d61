package metrics_test

import (
	"testing"
	"time"

	"github.com/mallard/mallard/ops/metrics"
)

// BenchmarkStatementEnded is the cost the metrics add to each statement:
// 8 goroutines count into one server's metrics.
func BenchmarkStatementEnded(b *testing.B) {
	m := metrics.New(nil)
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.StatementEnded("SELECT", 200*time.Microsecond, 1)
		}
	})
}
