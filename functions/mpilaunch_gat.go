//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// launchOf prepares a run of training function fn across ranks when
// ranks := N is above 1, and returns its launch (nil for a run in this
// process): workers := W (perRank) is then each rank's, and the run trains
// what N x W workers train in one process, which set gives the model's
// options and validates.
func launchOf(c *call, fn string, ranks, perRank int, set func(workers int) error) (*training.Launch, error) {
	if ranks <= 1 {
		return nil, nil
	}
	l, err := training.NewLaunch(fn, ranks, c.mpi)
	if err != nil {
		return nil, err
	}
	if err := set(ranks * perRank); err != nil {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: ranks := %d x workers := %d: %v", fn, ranks, perRank, err)
	}
	return l, nil
}
