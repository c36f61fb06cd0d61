//go:build duckdb_arrow

package functions

import (
	"encoding/json"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/mlops/series"
)

// gatJob is a train_gat run's job as its report reads it.
type gatJob struct {
	w                   reportSource
	link                *gatrun.Link
	timeKinds           []string
	timeRows, lastTimes [][]string
}

// reportSource is the run's source as its report reads it.
type reportSource struct{ s gatrun.Source }

func (r reportSource) entityNames() []string { return r.s.EntityNames() }
func (r reportSource) timeNames() []string   { return r.s.TimeNames() }

// reportOf is the report of model, trained by job on m, as JSON (see
// gatrun.Reporter).
func reportOf(job *gatrun.Job, m series.Matrix, model *gat.Model) (json.RawMessage, error) {
	j := &gatJob{w: reportSource{job.Source}, link: job.Link, timeKinds: job.TimeKinds(), timeRows: job.TimeRows(), lastTimes: job.LastTimes()}
	r, err := j.report(m, model)
	if err != nil {
		return nil, err
	}
	return r.encode()
}
