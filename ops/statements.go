//go:build duckdb_arrow

package ops

import (
	"time"

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

// statementsTable is the declaration of statementsFunction.
func statementsTable(db *storage.DB, sessions Sessions) storage.TableFunction {
	return storage.TableFunction{
		Name: statementsFunction, Args: []storage.TypeID{storage.TypeVarchar}, Columns: statementColumns,
		Bind: func(args []any) (storage.TableRows, error) {
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

// statementColumns are statementsFunction's output columns.
var statementColumns = []storage.Column{
	col("usename", storage.TypeVarchar), col("queryid", storage.TypeBigInt), col("query", storage.TypeVarchar),
	col("calls", storage.TypeBigInt), col("total_exec_time", storage.TypeDouble), col("min_exec_time", storage.TypeDouble),
	col("max_exec_time", storage.TypeDouble), col("mean_exec_time", storage.TypeDouble), col("stddev_exec_time", storage.TypeDouble),
	col("rows", storage.TypeBigInt),
}

func (r *statementRows) Init() {
	r.activityRows.Init()
	r.stats, r.nextStat = r.sessions.Statements(), 0
}

// Next returns the next group's row.
func (r *statementRows) Next() ([]any, error) {
	if r.nextStat >= len(r.stats) {
		return nil, nil
	}
	s := r.stats[r.nextStat]
	r.nextStat++
	query := s.Query
	if !r.visible(sqlfront.Backend{User: s.User}) {
		query = insufficientPrivilege
	}
	return []any{s.User, s.QueryID, query, s.Calls, s.TotalTime, s.MinTime, s.MaxTime, s.MeanTime, s.StddevTime, s.Rows}, nil
}

// resetStatements is pg_stat_statements_reset().
type resetStatements struct {
	db       *storage.DB
	sessions Sessions
}

// function is the declaration of resetFunction.
func (f resetStatements) function() storage.ScalarFunction {
	return storage.ScalarFunction{Name: resetFunction, Args: []storage.TypeID{storage.TypeVarchar},
		Result: storage.TypeTimestampTZ, Volatile: true, Eval: f.eval}
}

func (f resetStatements) eval(values []any) (any, error) {
	caller := callerOf(f.db, values[0])
	if caller.ReadOnly() {
		return nil, caller.Fail(sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied for function %s", resetFunction).
			WithHint("Only the owner role may reset the statement statistics."))
	}
	f.sessions.ResetStatements()
	return time.Now(), nil
}
