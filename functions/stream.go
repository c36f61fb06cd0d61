//go:build duckdb_arrow

package functions

import (
	"context"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/training"
)

// trainingJob is the lifecycle's job of a call of training function fn:
// the engine's registry, the server's memory budget and the caller's
// NOTICEs.
func trainingJob(c *call, fn string, resume *training.Resume) training.Job {
	return training.Job{Fn: fn, Registry: c.reg.Lifecycle(), Budget: c.db.Budget(), Notices: c.caller, Resume: resume}
}

// epochColumns are the columns of a training function whose epochs have
// the metric columns metrics (see training.Columns).
func epochColumns(metrics ...string) []duckdb.ColumnInfo {
	names := training.Columns(metrics...)
	cols := make([]duckdb.ColumnInfo, len(names))
	for i, name := range names {
		cols[i] = duckdb.ColumnInfo{Name: name, T: doubleType()}
	}
	cols[0].T, cols[len(cols)-2].T = bigintType(), boolType()
	return cols
}

// streamRows is the table function run of a training statement's rows:
// one row a chunk, so that each epoch's row reaches the client while
// training goes on (DuckDB asks for a table function's next chunk before
// it hands over the last; the NOTICEs are not held back).
func streamRows(rows *training.Rows) *run {
	return &run{
		fill: func(chunk duckdb.DataChunk) (int, error) {
			row, err := rows.Next()
			if row == nil {
				return 0, err
			}
			for i, v := range row {
				if err := chunk.SetValue(i, 0, v); err != nil {
					return 0, err
				}
			}
			return 1, nil
		},
		close: rows.Close,
	}
}

// trainRun starts a run of the lifecycle (see training.Start) as a
// table function's run.
func trainRun(ctx context.Context, j training.Job, read func(ctx context.Context, mem *training.Memory) (training.Model, error)) (*run, error) {
	rows, err := training.Start(ctx, j, read)
	if err != nil {
		return nil, err
	}
	return streamRows(rows), nil
}
