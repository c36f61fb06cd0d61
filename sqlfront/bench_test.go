//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/sqlfront"
)

// BenchmarkPreparedSelect is the wire QPS figure of `make bench` in one
// process, for profiling: 8 pgx clients run select $1::int as a cached
// prepared statement (Bind, Execute, Sync per query).
func BenchmarkPreparedSelect(b *testing.B) {
	addr := startServer(b, sqlfront.Config{})
	const clients = 8
	conns := make(chan *pgx.Conn, clients)
	for range clients {
		conns <- connect(b, addr, pgx.QueryExecModeCacheStatement)
	}
	var next atomic.Int64
	b.SetParallelism((clients + 1) / 2) // RunParallel starts GOMAXPROCS × this goroutines; 2 cores here
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		conn := <-conns
		defer func() { conns <- conn }()
		ctx := context.Background()
		for pb.Next() {
			var v int32
			i := int32(next.Add(1))
			if err := conn.QueryRow(ctx, "select $1::int", i).Scan(&v); err != nil || v != i {
				b.Errorf("select %d: %d, %v", i, v, err)
				return
			}
		}
	})
}
