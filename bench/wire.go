package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// loadSQL fills table t with rows 1..N in each dialect: the same column
// names, the same Postgres types (int4, float8, text, timestamp) and the
// same kind of values. {rows} stands for N.
var loadSQL = map[string][]string{
	"postgres": {
		`DROP TABLE IF EXISTS t`,
		`CREATE TABLE t (id int4, d float8, s text, ts timestamp)`,
		`INSERT INTO t SELECT i, random(), md5(i::text), timestamp '2020-01-01' + i * interval '1 second'
		 FROM generate_series(1, {rows}) i`,
		`VACUUM ANALYZE t`,
	},
	"duckdb": {
		`DROP TABLE IF EXISTS t`,
		`CREATE TABLE t AS SELECT i::INTEGER AS id, random() AS d, md5(i::VARCHAR) AS s,
		 TIMESTAMP '2020-01-01' + to_seconds(i) AS ts FROM range(1, {rows} + 1) r(i)`,
		`CHECKPOINT`,
	},
}

// warmSQL reads every column of t once, so that a freshly started server
// has the table in its buffers before a measurement.
const warmSQL = `SELECT count(id), sum(d), max(s), max(ts) FROM t`

func connect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	if dsn == "" {
		return nil, errors.New("connection string is empty")
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// waitReady returns once dsn accepts a connection and answers a query.
func waitReady(ctx context.Context, dsn string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		err := ping(ctx, dsn)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("server not ready after %v: %w", limit, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// ping connects to dsn and runs select 1.
func ping(ctx context.Context, dsn string) error {
	conn, err := connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var one int
	return conn.QueryRow(ctx, "select 1").Scan(&one)
}

// execAll runs stmts in order on a new connection to dsn.
func execAll(ctx context.Context, dsn string, stmts ...string) error {
	conn, err := connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%.40s: %w", s, err)
		}
	}
	return nil
}

// load creates table t with rows rows in dialect and checks its row count.
func load(ctx context.Context, dsn, dialect string, rows int) error {
	var stmts []string
	for _, s := range loadSQL[dialect] {
		stmts = append(stmts, strings.ReplaceAll(s, "{rows}", strconv.Itoa(rows)))
	}
	if err := execAll(ctx, dsn, stmts...); err != nil {
		return fmt.Errorf("load %s: %w", dialect, err)
	}
	conn, err := connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	return checkCount(ctx, conn, "t", rows)
}

// checkCount fails unless table holds want rows.
func checkCount(ctx context.Context, conn *pgx.Conn, table string, want int) error {
	var n int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		return fmt.Errorf("count %s: %w", table, err)
	}
	if n != int64(want) {
		return fmt.Errorf("table %s has %d rows, want %d", table, n, want)
	}
	return nil
}

// A streamClient reads the result of SELECT * FROM t on conn and returns
// how many rows it read and a sum over their values, so that no read can
// be skipped.
type streamClient func(ctx context.Context, conn *pgx.Conn) (rows, sum int, err error)

// scanClient scans all four columns of every row into Go values through
// pgx's Rows, the work a typical Go client does.
func scanClient(ctx context.Context, conn *pgx.Conn) (n, sum int, err error) {
	rows, err := conn.Query(ctx, "SELECT * FROM t")
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	var (
		id int32
		d  float64
		s  string
		ts time.Time
	)
	for rows.Next() {
		if err := rows.Scan(&id, &d, &s, &ts); err != nil {
			return n, sum, err
		}
		sum += int(id) + len(s)
		n++
	}
	return n, sum, rows.Err()
}

// bytesClient reads every row through pgx's lower level, pgconn, which
// hands over each value's wire bytes without converting them to Go values:
// the protocol's own cost, which the server's speed decides, where
// scanClient's figure is bounded by the client's conversions. It asks for
// the formats pgx's default mode asks for (text as text, the other three
// columns binary), so the same bytes cross the wire as for scanClient.
func bytesClient(ctx context.Context, conn *pgx.Conn) (n, sum int, err error) {
	return readBytes(ctx, conn, []int16{1, 1, 0, 1}, func(id []byte) (int, bool) {
		return int(int32(binary.BigEndian.Uint32(id))), len(id) == 4
	})
}

// textClient is bytesClient with every column in text format, as psql,
// psycopg, node-postgres and most BI tools' drivers read results.
func textClient(ctx context.Context, conn *pgx.Conn) (n, sum int, err error) {
	return readBytes(ctx, conn, []int16{0, 0, 0, 0}, func(id []byte) (int, bool) {
		v, err := strconv.Atoi(string(id))
		return v, err == nil
	})
}

// readBytes reads SELECT * FROM t through pgconn in formats, summing the
// ids, which id parses, and the lengths of the text column.
func readBytes(ctx context.Context, conn *pgx.Conn, formats []int16, id func([]byte) (int, bool)) (n, sum int, err error) {
	rr := conn.PgConn().ExecParams(ctx, "SELECT * FROM t", nil, nil, nil, formats)
	for rr.NextRow() {
		v := rr.Values()
		if len(v) != 4 {
			rr.Close()
			return n, sum, fmt.Errorf("row %d: %d values, want 4", n, len(v))
		}
		k, ok := id(v[0])
		if !ok {
			rr.Close()
			return n, sum, fmt.Errorf("row %d: id %q in format %d", n, v[0], formats[0])
		}
		sum += k + len(v[2])
		n++
	}
	_, err = rr.Close()
	return n, sum, err
}

// streamWire times client reading SELECT * FROM t on a new connection.
func streamWire(ctx context.Context, dsn string, want int, client streamClient) (float64, error) {
	conn, err := connect(ctx, dsn)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	start := time.Now()
	n, sum, err := client(ctx, conn)
	if err != nil {
		return 0, err
	}
	elapsed := time.Since(start).Seconds()
	if n != want || sum == 0 {
		return 0, fmt.Errorf("read %d rows (id+len sum %d), want %d", n, sum, want)
	}
	return elapsed, nil
}

// qpsWire counts round trips of select $1::int per second from clients new
// pgx connections in pgx's default mode (extended protocol, statement
// prepared on first use and cached), after warming them up.
func qpsWire(ctx context.Context, dsn string, clients int, warmup, d time.Duration) (float64, error) {
	conns := make([]*pgx.Conn, clients)
	for i := range conns {
		c, err := connect(ctx, dsn)
		if err != nil {
			return 0, err
		}
		defer c.Close(context.Background())
		conns[i] = c
	}
	return echoQPS(ctx, clients, warmup, d, func(ctx context.Context, worker int, arg int32) (got int32, err error) {
		err = conns[worker].QueryRow(ctx, "select $1::int", arg).Scan(&got)
		return got, err
	})
}

// echoQPS is parallelQPS for d after a warm-up of warmup, of a query that
// echo runs on worker's connection and that must return its argument.
func echoQPS(ctx context.Context, workers int, warmup, d time.Duration, echo func(ctx context.Context, worker int, arg int32) (int32, error)) (float64, error) {
	query := func(ctx context.Context, worker, i int) error {
		want := queryArg(worker, i)
		got, err := echo(ctx, worker, want)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("select %d returned %d", want, got)
		}
		return nil
	}
	if _, err := parallelQPS(ctx, workers, warmup, query); err != nil {
		return 0, err
	}
	return parallelQPS(ctx, workers, d, query)
}

// queryArg is the i-th argument of worker: every query gets a different one.
func queryArg(worker, i int) int32 {
	return int32(worker*10_000_000 + i%10_000_000)
}

// parallelQPS runs query in a loop on each of workers goroutines until d has
// passed and returns completed queries per second. The loops check the clock
// between queries rather than cancel one in flight: pgx closes a connection
// whose query is canceled.
func parallelQPS(ctx context.Context, workers int, d time.Duration, query func(ctx context.Context, worker, i int) error) (float64, error) {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int
		first error
	)
	start := time.Now()
	deadline := start.Add(d)
	for w := range workers {
		wg.Go(func() {
			n := 0
			var err error
			for ; time.Now().Before(deadline) && ctx.Err() == nil; n++ {
				if err = query(ctx, w, n); err != nil {
					break
				}
			}
			mu.Lock()
			defer mu.Unlock()
			total += n
			if err != nil && first == nil {
				first = err
			}
		})
	}
	wg.Wait()
	if first != nil {
		return 0, first
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return float64(total) / time.Since(start).Seconds(), nil
}
