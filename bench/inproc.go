package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
)

// openInProcess opens the database file in this process and reads table t
// once, as warmSQL does for a freshly started server. Closing the *sql.DB
// releases the file for the server. Each connection works in schema public,
// where Mallard's sessions create tables.
func openInProcess(ctx context.Context, path string) (*sql.DB, error) {
	connector, err := duckdb.NewConnector(path, func(execer driver.ExecerContext) error {
		_, err := execer.ExecContext(ctx, "SET schema = 'public'", nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("open %s in-process: %w", path, err)
	}
	db := sql.OpenDB(connector)
	if _, err := db.ExecContext(ctx, warmSQL); err != nil {
		return nil, errors.Join(fmt.Errorf("warm in-process: %w", err), db.Close())
	}
	return db, nil
}

// arrowStream times SELECT * FROM t read through duckdb-go's Arrow interface
// as record batches, touching every value of the four columns.
func arrowStream(ctx context.Context, db *sql.DB, want int) (float64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("connect in-process: %w", err)
	}
	defer conn.Close()
	var elapsed float64
	err = conn.Raw(func(dc any) error {
		ar, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
		if err != nil {
			return err
		}
		start := time.Now()
		n, err := arrowRead(ctx, ar)
		elapsed = time.Since(start).Seconds()
		if err == nil && n != want {
			err = fmt.Errorf("read %d rows, want %d", n, want)
		}
		return err
	})
	return elapsed, err
}

func arrowRead(ctx context.Context, ar *duckdb.Arrow) (int, error) {
	rr, err := ar.QueryContext(ctx, "SELECT * FROM t")
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	var n int
	var sum float64
	for rr.Next() {
		rec := rr.RecordBatch()
		s, err := touchBatch(rec)
		if err != nil {
			return n, err
		}
		sum += s
		n += int(rec.NumRows())
	}
	if err := rr.Err(); err != nil {
		return n, err
	}
	if n > 0 && sum == 0 {
		return n, errors.New("every value was zero")
	}
	return n, nil
}

// touchBatch reads every value of the batch's four columns and returns a sum
// of them, so that the reads cannot be optimised away.
func touchBatch(rec arrow.RecordBatch) (float64, error) {
	if rec.NumCols() != 4 {
		return 0, fmt.Errorf("batch has %d columns, want 4", rec.NumCols())
	}
	ids, ok1 := rec.Column(0).(*array.Int32)
	ds, ok2 := rec.Column(1).(*array.Float64)
	ts, ok3 := rec.Column(3).(*array.Timestamp)
	if !ok1 || !ok2 || !ok3 {
		return 0, fmt.Errorf("unexpected Arrow schema %v", rec.Schema())
	}
	strLen, err := stringColumn(rec.Column(2))
	if err != nil {
		return 0, err
	}
	var sumID, sumTS, sumLen int64
	var sumD float64
	for i := range int(rec.NumRows()) {
		sumID += int64(ids.Value(i))
		sumD += ds.Value(i)
		sumLen += int64(strLen(i))
		sumTS += int64(ts.Value(i))
	}
	return float64(sumID) + sumD + float64(sumLen) + float64(sumTS%1024), nil
}

// stringColumn returns the length of the i-th string of a, whichever of
// Arrow's string layouts DuckDB chose.
func stringColumn(a arrow.Array) (func(i int) int, error) {
	switch s := a.(type) {
	case *array.String:
		return func(i int) int { return len(s.Value(i)) }, nil
	case *array.LargeString:
		return func(i int) int { return len(s.Value(i)) }, nil
	case *array.StringView:
		return func(i int) int { return len(s.Value(i)) }, nil
	}
	return nil, fmt.Errorf("column s is %s, want a string type", a.DataType())
}

// preparedQPS counts executions per second of a prepared select ?::int from
// clients goroutines, each with its own connection and statement, after
// warming them up.
func preparedQPS(ctx context.Context, db *sql.DB, clients int, warmup, d time.Duration) (float64, error) {
	stmts := make([]*sql.Stmt, clients)
	for i := range stmts {
		conn, err := db.Conn(ctx)
		if err != nil {
			return 0, fmt.Errorf("connect in-process: %w", err)
		}
		defer conn.Close()
		st, err := conn.PrepareContext(ctx, "select ?::int")
		if err != nil {
			return 0, fmt.Errorf("prepare: %w", err)
		}
		defer st.Close()
		stmts[i] = st
	}
	return echoQPS(ctx, clients, warmup, d, func(ctx context.Context, worker int, arg int32) (got int32, err error) {
		err = stmts[worker].QueryRowContext(ctx, arg).Scan(&got)
		return got, err
	})
}
