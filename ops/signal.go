//go:build duckdb_arrow

package ops

import (
	"database/sql/driver"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/storage"
)

// signalFunction is pg_cancel_backend(pid) or pg_terminate_backend(pid):
// true if the session was signaled, false with a WARNING if pid names no
// session, NULL for a NULL pid; 42501 for a session the caller may not
// signal (see sqlfront.Server.Signal).
type signalFunction struct {
	db        *storage.DB
	sessions  Sessions
	terminate bool
}

func signalName(terminate bool) string {
	if terminate {
		return "pg_terminate_backend"
	}
	return "pg_cancel_backend"
}

func (f signalFunction) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{
		InputTypeInfos: []duckdb.TypeInfo{typeInfo(duckdb.TYPE_VARCHAR), typeInfo(duckdb.TYPE_INTEGER)},
		ResultTypeInfo: typeInfo(duckdb.TYPE_BOOLEAN), Volatile: true,
	}
}

func (f signalFunction) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(values []driver.Value) (any, error) {
		caller := callerOf(f.db, values[0])
		pid, _ := values[1].(int32)
		ok, err := f.sessions.Signal(caller.ID(), int64(pid), f.terminate)
		if err != nil {
			return nil, caller.Fail(err)
		}
		return ok, nil
	}}
}
