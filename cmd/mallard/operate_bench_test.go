package main

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BenchmarkOperatingOverhead measures what statement statistics and
// metrics cost: 8 pgx clients run select $1::int as a cached prepared
// statement against two servers run as main runs them, one with both off
// (--http ” --stat-statements-max 0) and one with them on (the defaults,
// metrics served on a dashboard port). Connection logging is on in both;
// per-statement logging is off, as by default. The servers take turns,
// in six rounds of a second each, so that other load on the
// machine falls on both alike; it reports each one's queries per second
// and on/off.
func BenchmarkOperatingOverhead(b *testing.B) {
	off := newQPSClients(b, serveForTest(b, "--stat-statements-max", "0"))
	on := newQPSClients(b, serveForTest(b, "--http", freePort(b)))
	const rounds, round = 6, time.Second
	b.ResetTimer()
	for range b.N {
		for i := range rounds { // each goes first in half the rounds
			first, second := off, on
			if i%2 == 1 {
				first, second = on, off
			}
			first.run(b, round)
			second.run(b, round)
		}
	}
	qOff, qOn := off.qps(), on.qps()
	b.ReportMetric(qOff, "qps_off")
	b.ReportMetric(qOn, "qps_on")
	b.ReportMetric(qOn/qOff, "on/off")
}

// qpsClients are 8 sessions that run select $1::int, and what they ran.
type qpsClients struct {
	conns   []*pgx.Conn
	queries atomic.Int64
	elapsed time.Duration
}

func newQPSClients(b *testing.B, s *servedMallard) *qpsClients {
	c := &qpsClients{}
	for range 8 {
		c.conns = append(c.conns, s.connect(b, "mallard", "", "bench", nil))
	}
	return c
}

// run has every client query for d.
func (c *qpsClients) run(b *testing.B, d time.Duration) {
	start := time.Now()
	end := start.Add(d)
	var wg sync.WaitGroup
	for _, conn := range c.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int32(0); time.Now().Before(end); i++ {
				var v int32
				if err := conn.QueryRow(context.Background(), "select $1::int", i).Scan(&v); err != nil || v != i {
					b.Errorf("select %d: %d, %v", i, v, err)
					return
				}
				c.queries.Add(1)
			}
		}()
	}
	wg.Wait()
	c.elapsed += time.Since(start)
}

func (c *qpsClients) qps() float64 { return float64(c.queries.Load()) / c.elapsed.Seconds() }
