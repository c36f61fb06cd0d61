//go:build duckdb_arrow && linux

package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// probeLimit is the --memory-limit the memory probe runs under; the goal
// is that the read-only role cannot raise RSS past it plus 256 MB.
const probeLimit = "2GB"

// probePath is one way a client may try to make the server hold memory:
// run sends it through c and says what the server answered.
type probePath struct {
	name string
	run  func(t testing.TB, c *pgconn.PgConn) string
}

// BenchmarkMemoryProbe starts a server with --memory-limit 2GB for each
// attack path (a sub-benchmark each, so that -bench can pick one), runs the path as the read-only role and prints the
// server's RSS before, its peak (VmHWM) and its RSS 15 s after the session
// closed, beside the limit + 256 MB. scripts/memory-probe.sh runs it.
func BenchmarkMemoryProbe(b *testing.B) {
	paths := []probePath{
		{"portal_3e8_rows_then_query", probeSuspendedPortal},
		{"distinct_1MB_statements_x500", probeLongStatements},
		{"prepared_statements_x20000", probePrepared},
		{"oom_list_1e9", probeOutOfMemory("SELECT list(i) FROM range(1000000000) t(i)")},
		{"oom_string_agg_4e8", probeOutOfMemory("SELECT string_agg(i::VARCHAR, ',') FROM range(400000000) t(i)")},
		{"oom_group_lists_1e8", probeOutOfMemory("SELECT count(*) FROM (SELECT i, list(i) FROM range(100000000) t(i) GROUP BY i)")},
	}
	bound := int64(2e9) + 256<<20
	for _, path := range paths {
		b.Run(path.name, func(b *testing.B) {
			for range b.N {
				p := startWithReader(b, "probe.duckdb", "--memory-limit", probeLimit)
				before := p.procStatus(b, "VmRSS")
				c := readerConn(b, p)
				answer := path.run(b, c)
				c.Close(context.Background())
				peak := p.procStatus(b, "VmHWM")
				time.Sleep(15 * time.Second)
				after := p.procStatus(b, "VmRSS")
				verdict := "within"
				if peak > bound {
					verdict = "PAST"
				}
				fmt.Fprintf(os.Stdout, "%-32s RSS before %5d MB  peak %5d MB  after %5d MB  (%s limit+256MB = %d MB)  answer: %s\n",
					path.name, before>>20, peak>>20, after>>20, verdict, bound>>20, answer)
			}
		})
	}
}

func probeSuspendedPortal(t testing.TB, c *pgconn.PgConn) string {
	untilReady(t, c, &pgproto3.Query{String: "BEGIN"})
	untilReady(t, c, &pgproto3.Parse{Query: "SELECT i, repeat('x', 50) FROM range(300000000) t(i)"},
		&pgproto3.Bind{DestinationPortal: "p"}, &pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Sync{})
	e, _ := untilReady(t, c, &pgproto3.Query{String: "SELECT 1"})
	untilReady(t, c, &pgproto3.Query{String: "ROLLBACK"})
	return answer(e)
}

func probeLongStatements(t testing.TB, c *pgconn.PgConn) string {
	pad := strings.Repeat("x", 1<<20)
	var last *pgproto3.ErrorResponse
	cols := ""
	for i := range 500 {
		cols += fmt.Sprintf(", %d AS c%d", i, i) // one more column: a new group
		if e, _ := untilReady(t, c, &pgproto3.Query{String: "SELECT length('" + pad + "')" + cols}); e != nil {
			last = e
		}
	}
	return answer(last)
}

func probePrepared(t testing.TB, c *pgconn.PgConn) string {
	var first *pgproto3.ErrorResponse
	failed := 0
	for i := range 20000 {
		e, _ := untilReady(t, c, &pgproto3.Parse{Name: fmt.Sprintf("s%d", i), Query: "SELECT $1::int + 1 AS a, 'some text' AS b"}, &pgproto3.Sync{})
		if e != nil {
			failed++
			if first == nil {
				first = e
			}
		}
	}
	return fmt.Sprintf("%d refused; first: %s", failed, answer(first))
}

// probeOutOfMemory runs query, which needs more than the limit, three times.
func probeOutOfMemory(query string) func(t testing.TB, c *pgconn.PgConn) string {
	return func(t testing.TB, c *pgconn.PgConn) string {
		var last *pgproto3.ErrorResponse
		for range 3 {
			if e, _ := untilReady(t, c, &pgproto3.Query{String: query}); e != nil {
				last = e
			}
		}
		return answer(last)
	}
}

func answer(e *pgproto3.ErrorResponse) string {
	if e == nil {
		return "no error"
	}
	msg := e.Message
	if len(msg) > 90 {
		msg = msg[:90] + "..."
	}
	return e.Code + " " + msg
}
