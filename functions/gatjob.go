//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
)

// gatJob is one execution of train_gat: training runs on its own goroutine
// and hands each epoch to fill, which writes it as a row, so the rows reach
// the client while training runs.
type gatJob struct {
	c      *call
	w      *wide
	cfg    gat.Config
	name   string
	scaler string
	link   *scaleLink
}

// scaleLink maps a model's entities to the columns of the scaler that
// rescaled them, to report and forecast in original units.
type scaleLink struct {
	scaler scale.Scaler
	column []int // scaler column of each entity
}

// invert maps an entity's value back to original units; nil without a scaler.
func (l *scaleLink) invert() gat.Invert {
	if l == nil {
		return nil
	}
	return func(i int, v float64) float64 { return l.scaler.Invert(l.column[i], v) }
}

// linkScaler loads the scaler named name (none if empty) and finds each entity's column in it.
func linkScaler(c *call, name string, entities []string) (*scaleLink, error) {
	if name == "" {
		return nil, nil
	}
	s, err := loadScaler(c.ctx(), c.db, trainGATName, name)
	if err != nil {
		return nil, err
	}
	link := &scaleLink{scaler: s}
	for _, e := range entities {
		k := -1
		for i, col := range s.Columns {
			if col == e {
				k = i
			}
		}
		if k < 0 {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: scaler %s has no column %s", trainGATName, quote(name), e).
				WithHint("Link the scaler that rescaled this source: rescale(..., save_as := '%s').", name)
		}
		link.column = append(link.column, k)
	}
	return link, nil
}

// epochDone is what the training goroutine hands fill: an epoch, or the end.
type epochDone struct {
	epoch *gat.Epoch
	err   error
}

func (j *gatJob) start(ctx context.Context) (*run, error) {
	m, err := j.w.matrix(ctx, j.c, trainGATName)
	if err != nil {
		return nil, err
	}
	if m.T < minRows(j.cfg.Window) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d time rows; window := %d needs at least %d",
			trainGATName, m.T, j.cfg.Window, minRows(j.cfg.Window))
	}
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan epochDone)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		model, err := gat.Train(ctx, j.cfg, m, func(e gat.Epoch) error {
			j.c.caller.Notice(fmt.Sprintf("train_gat %s: epoch %d train_mse %.6g test_mse %.6g", j.name, e.Epoch, e.TrainMSE, e.TestMSE))
			select {
			case out <- epochDone{epoch: &e}:
				return nil
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		})
		if err == nil {
			err = j.save(ctx, m, model)
		}
		select {
		case out <- epochDone{err: err}:
		case <-ctx.Done():
		}
	}()
	return &run{
		fill:  func(chunk duckdb.DataChunk) (int, error) { return j.fill(chunk, out) },
		close: func() { cancel(); <-finished },
	}, nil
}

// fill writes the next epoch as one row: the row goes out as soon as the
// epoch ends.
func (j *gatJob) fill(chunk duckdb.DataChunk, out <-chan epochDone) (int, error) {
	d := <-out
	if d.epoch == nil {
		return 0, d.err
	}
	e := d.epoch
	vals := []any{int64(e.Epoch), e.TrainMSE, e.TestMSE, e.Best, float64(e.Elapsed.Microseconds()) / 1000}
	for i, v := range vals {
		if err := chunk.SetValue(i, 0, v); err != nil {
			return 0, err
		}
	}
	return 1, nil
}
