//go:build duckdb_arrow

package ops

import (
	"database/sql/driver"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/sqlfront/statements"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// statementsFunction is the table function pg_stat_statements reads: one
// row per group of statements (see statements.Table), as seen by the
// session whose connection token is its argument.
const statementsFunction = "mallard_statements"

// resetFunction is pg_stat_statements_reset(): the owner role forgets the
// statistics; it returns when, as Postgres 17 does.
const resetFunction = "pg_stat_statements_reset"

func statementsUDF(db *storage.DB, sessions Sessions) duckdb.ChunkTableFunction {
	return duckdb.ChunkTableFunction{
		Config: duckdb.TableFunctionConfig{Arguments: []duckdb.TypeInfo{typeInfo(duckdb.TYPE_VARCHAR)}},
		BindArguments: func(_ map[string]any, args ...any) (duckdb.ChunkTableSource, error) {
			token, _ := args[0].(string)
			return &statementRows{activityRows: activityRows{caller: db.CallerOf(token), sessions: sessions}}, nil
		},
	}
}

// statementRows lists the statistics as they are when the statement runs.
type statementRows struct {
	activityRows // the caller and its role
	stats        []statements.Stat
	nextStat     int
}

var statementColumns = []struct {
	name string
	t    duckdb.Type
}{
	{"usename", duckdb.TYPE_VARCHAR}, {"queryid", duckdb.TYPE_BIGINT}, {"query", duckdb.TYPE_VARCHAR},
	{"calls", duckdb.TYPE_BIGINT}, {"total_exec_time", duckdb.TYPE_DOUBLE}, {"min_exec_time", duckdb.TYPE_DOUBLE},
	{"max_exec_time", duckdb.TYPE_DOUBLE}, {"mean_exec_time", duckdb.TYPE_DOUBLE}, {"stddev_exec_time", duckdb.TYPE_DOUBLE},
	{"rows", duckdb.TYPE_BIGINT},
}

func (r *statementRows) ColumnInfos() []duckdb.ColumnInfo {
	out := make([]duckdb.ColumnInfo, len(statementColumns))
	for i, c := range statementColumns {
		out[i] = duckdb.ColumnInfo{Name: c.name, T: typeInfo(c.t)}
	}
	return out
}

func (r *statementRows) Init() {
	r.activityRows.Init()
	r.stats, r.nextStat = r.sessions.Statements(), 0
}

func (r *statementRows) FillChunk(chunk duckdb.DataChunk) error {
	n := 0
	for ; n < duckdb.GetDataChunkCapacity() && r.nextStat < len(r.stats); n++ {
		s := r.stats[r.nextStat]
		r.nextStat++
		query := s.Query
		if !r.visible(sqlfront.Backend{User: s.User}) {
			query = insufficientPrivilege
		}
		values := []any{s.User, s.QueryID, query, s.Calls, s.TotalTime, s.MinTime, s.MaxTime, s.MeanTime, s.StddevTime, s.Rows}
		for col, v := range values {
			if err := chunk.SetValue(col, n, v); err != nil {
				return err
			}
		}
	}
	return chunk.SetSize(n)
}

// resetStatements is pg_stat_statements_reset().
type resetStatements struct {
	db       *storage.DB
	sessions Sessions
}

func (f resetStatements) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{typeInfo(duckdb.TYPE_VARCHAR)},
		ResultTypeInfo: typeInfo(duckdb.TYPE_TIMESTAMP_TZ), Volatile: true}
}

func (f resetStatements) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(values []driver.Value) (any, error) {
		caller := callerOf(f.db, values[0])
		if caller.ReadOnly() {
			return nil, caller.Fail(sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied for function %s", resetFunction).
				WithHint("Only the owner role may reset the statement statistics."))
		}
		f.sessions.ResetStatements()
		return time.Now(), nil
	}}
}
