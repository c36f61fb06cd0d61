//go:build duckdb_arrow

package functions

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// attention('model', version := n) explains a GAT version's forecasts by
// its last layer's attention over the test samples, one row per (source,
// target) pair of entities that was an edge, self loops included (with a
// neighbour limit k, each target's k + 1 kept ones). The
// attention is computed when training finishes and kept in the version's
// report, because the artifact holds only the last window of the data.
func attentionFunction() tableFunction {
	return typedFunction("attention", []column{{"source", pgText}, {"target", pgText}, {"weight", pgDouble}}, bindAttention, nil)
}

// bindAttention reads the attention of the version the arguments name.
// Its rows are ordered by target name, then weight from the largest, then
// source name; every weight is in [0, 1].
func bindAttention(c *call, o *servingArgs) (*table, error) {
	s, err := loadGAT(c, "attention", o.modelVersion)
	if err != nil {
		return nil, err
	}
	edges, err := storedAttention(c.ctx(), c.reg, s.ref)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(edges))
	for k, e := range edges {
		if e.Source < 0 || e.Source >= len(s.Entities) || e.Target < 0 || e.Target >= len(s.Entities) {
			return nil, sqlstate.New(sqlstate.DataCorrupted, "attention: the report of %s names entity %d, %d of %d", s.ref, e.Source, e.Target, len(s.Entities))
		}
		rows[k] = []any{s.Entities[e.Source], s.Entities[e.Target], e.Weight}
	}
	slices.SortStableFunc(rows, func(x, y []any) int {
		return cmp.Or(cmp.Compare(x[1].(string), y[1].(string)), cmp.Compare(y[2].(float64), x[2].(float64)), cmp.Compare(x[0].(string), y[0].(string)))
	})
	return &table{open: func(context.Context) (*run, error) { return rowsRun(rows), nil }}, nil
}

// storedAttention reads the attention kept in ref's report. A version
// without it, because training did not finish or the version predates
// attention, is an ObjectNotInPrerequisiteState error with a hint.
func storedAttention(ctx context.Context, reg *registry.Registry, ref mlops.Ref) ([]reportEdge, error) {
	data, err := reg.Report(ctx, ref)
	var e *registry.Error
	if errors.As(err, &e) && errors.Is(err, registry.ErrNoReport) {
		if e.Status == registry.StatusReady {
			return nil, noAttention(ref, "was trained before Mallard kept reports")
		}
		return nil, noAttention(ref, "did not finish training (status "+e.Status+")")
	}
	if err != nil {
		return nil, fmt.Errorf("attention of %s: %w", ref, err)
	}
	var report struct {
		Attention []reportEdge `json:"attention"`
	}
	if err := json.Unmarshal(data, &report); err != nil {
		return nil, fmt.Errorf("decode report of %s: %w", ref, err)
	}
	if report.Attention == nil {
		return nil, noAttention(ref, "was trained before Mallard computed attention")
	}
	return report.Attention, nil
}

// noAttention is the error for a version whose attention was not computed, for the reason why.
func noAttention(ref mlops.Ref, why string) error {
	return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "attention: %s has no attention: it %s", ref, why).
		WithHint("Attention is computed when training finishes; train the model again, or name a version whose status is ready: attention('%s', version := n).", ref.Name)
}
