//go:build duckdb_arrow

package functions

import (
	"context"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

func recProtocols() []string { return []string{recommender.ProtocolRatings, recommender.ProtocolUsers} }

// evaluateRecColumns are evaluate's columns for a recommender: those of
// its first release, then the longer cut-offs.
func evaluateRecColumns() []duckdb.ColumnInfo {
	cols := []duckdb.ColumnInfo{{Name: "method", T: varcharType()}}
	for _, name := range []string{"test_rmse", "recall_at_10", "ndcg_at_10", "recall_at_20", "ndcg_at_100"} {
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
	}
	return cols
}

// bindEvaluateRecommender is evaluate of a recommender: the model, the
// baselines and EASE measured under protocol ("" for 'ratings'), computed
// from the stored version when first asked for and kept with it.
func bindEvaluateRecommender(c *call, ref mlops.Ref, protocol string) (*table, error) {
	s, err := loadRec(c.ctx(), c, "evaluate", ref)
	if err != nil {
		return nil, err
	}
	if s.Metrics == "" {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "evaluate: %s did not finish training and has no metrics", s.Ref)
	}
	if protocol == "" {
		protocol = recommender.ProtocolRatings
	}
	return &table{cols: evaluateRecColumns(), open: func(ctx context.Context) (*run, error) {
		ms, err := s.Evaluation(ctx, protocol, c.caller.Notice)
		if err != nil {
			return nil, err
		}
		rows := make([][]any, len(ms))
		for i, m := range ms {
			rows[i] = []any{m.Method, nanNull(m.RMSE), nanNull(m.RecallAt10), nanNull(m.NDCGAt10), nanNull(m.RecallAt20), nanNull(m.NDCGAt100)}
		}
		return rowsRun(rows), nil
	}}, nil
}
