//go:build duckdb_arrow

package functions

import (
	"context"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/mlops/training"
)

// trainingJob is the lifecycle's job of a call of training function fn:
// the engine's registry, the server's memory budget and the caller's
// NOTICEs.
func trainingJob(c *call, fn string, resume *training.Resume) training.Job {
	return training.Job{Fn: fn, Registry: registryOf{c.reg}, Budget: c.db.Budget(), Notices: c.caller, Resume: resume}
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

// registryOf is the engine's registry as the lifecycle sees it.
type registryOf struct{ reg *registry.Registry }

func (r registryOf) Begin(ctx context.Context, s training.Spec) (training.Record, error) {
	tr, err := r.reg.Begin(ctx, registry.Spec{Kind: s.Kind, Name: s.Name, Params: s.Params, Source: s.Source,
		Fingerprint: s.Fingerprint, Rows: s.Rows, Entities: s.Entities, Scaler: s.Scaler, Epochs: s.Epochs,
		CheckpointEvery: s.CheckpointEvery, ResumedFrom: s.ResumedFrom, Deploy: s.Deploy, Session: s.Session})
	if err != nil {
		return nil, err
	}
	return recordOf{tr}, nil
}

// recordOf is a registered run as the lifecycle sees it.
type recordOf struct{ *registry.Training }

func (r recordOf) Epoch(l training.Losses) (bool, error) {
	return r.Training.Epoch(l.Epoch, l.Train, l.Test, l.Selection, l.ElapsedMS, l.Extra)
}

func (r recordOf) Finish(res *training.Result) string {
	return r.Training.Finish(&registry.Result{Artifact: res.Artifact, Epoch: res.Epoch, Metrics: res.Metrics,
		TestLoss: res.TestLoss, ValLoss: res.ValLoss, Report: res.Report})
}
