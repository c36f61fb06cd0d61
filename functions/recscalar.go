//go:build duckdb_arrow

package functions

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// recommendationsFunction is the scalar recommendations(model, user_id,
// k): user_id's k best items as a list of (item, score) structs, for use
// per row over a table of users. It has an overload for integer and one
// for text user ids; the items come back as the user id's type (see
// recommendationsUDF). The planner passes the caller first.
type recommendationsUDF struct {
	e *env
	// text is the overload for text user ids, whose items are text.
	text bool
}

// recMemo keeps, for one statement, the models its rows have named.
type recMemo struct {
	mu     sync.Mutex
	models map[string]*recommender.Version
}

type recMemoKey struct{}

func (f recommendationsUDF) Config() duckdb.ScalarFuncConfig {
	item := idTypeInfo(f.text)
	itemEntry, _ := duckdb.NewStructEntry(item, "item")
	scoreEntry, _ := duckdb.NewStructEntry(doubleType(), "score")
	st, _ := duckdb.NewStructInfo(itemEntry, scoreEntry)
	list, _ := duckdb.NewListInfo(st)
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{varcharType(), varcharType(), item, bigintType()},
		ResultTypeInfo: list, Volatile: true}
}

func (f recommendationsUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{
		ScalarBinder: func(ctx context.Context, _ []duckdb.ScalarUDFArg) (context.Context, error) {
			return context.WithValue(ctx, recMemoKey{}, &recMemo{models: map[string]*recommender.Version{}}), nil
		},
		RowContextExecutor: func(ctx context.Context, values []driver.Value) (any, error) {
			c := newCall(f.e, values[0])
			out, err := f.row(ctx, c, values[1:])
			if err != nil {
				return nil, c.caller.Fail(err)
			}
			return out, nil
		},
	}
}

const recommendationsName = "recommendations"

func (f recommendationsUDF) row(ctx context.Context, c *call, values []driver.Value) (any, error) {
	name, _ := values[0].(string)
	k, _ := values[2].(int64)
	if k < 1 || k > maxK {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: k := %d is out of range; it must be ≥ 1 and ≤ %d", recommendationsName, k, maxK)
	}
	memo, _ := ctx.Value(recMemoKey{}).(*recMemo)
	if memo == nil {
		memo = &recMemo{models: map[string]*recommender.Version{}}
	}
	memo.mu.Lock()
	s, ok := memo.models[name]
	memo.mu.Unlock()
	if !ok {
		ref, err := mlops.ParseRef(name)
		if err != nil {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: model: %v", recommendationsName, err)
		}
		if s, err = loadRec(c.ctx(), c, recommendationsName, ref); err != nil {
			return nil, err
		}
		if s.Columns.ItemIsText && !f.text {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: %s has text item ids, which an integer user_id cannot return", recommendationsName, s.Ref).
				WithHint("Pass the user id as text: recommendations('%s', CAST(user_id AS VARCHAR), k).", name)
		}
		memo.mu.Lock()
		memo.models[name] = s
		memo.mu.Unlock()
	}
	recs, err := s.Recommend(ctx, recommendationsName, values[1], int(k), true, "error", recommender.MethodModel)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(recs))
	for i, r := range recs {
		item := s.ItemValue(r.Item)
		if f.text {
			item = s.Model.ItemIDs.At(r.Item).String()
		}
		out[i] = map[string]any{"item": item, "score": r.Score}
	}
	return out, nil
}

func registerRecommendations(conn *sql.Conn, e *env) error {
	return duckdb.RegisterScalarUDFSet(conn, recommendationsName, recommendationsUDF{e: e}, recommendationsUDF{e: e, text: true})
}
