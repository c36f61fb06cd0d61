//go:build duckdb_arrow

package ops

import (
	"time"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// signalFunction is pg_cancel_backend(pid), pg_terminate_backend(pid) or
// pg_terminate_backend(pid, timeout): true if the session was signaled,
// false with a WARNING if pid names no session, NULL for a NULL argument;
// 42501 for a session the caller may not signal (see
// sqlfront.Server.Signal). With a timeout above 0 (milliseconds), as in
// Postgres 14 and later, it then waits for the session to end: false with
// a WARNING if it has not ended in time.
type signalFunction struct {
	db        *storage.DB
	sessions  Sessions
	terminate bool
	timeout   bool // takes the timeout argument
}

func signalName(terminate bool) string {
	if terminate {
		return "pg_terminate_backend"
	}
	return "pg_cancel_backend"
}

// function is f's declaration.
func (f signalFunction) function() storage.ScalarFunction {
	in := []storage.TypeID{storage.TypeVarchar, storage.TypeInteger}
	if f.timeout {
		in = append(in, storage.TypeBigInt)
	}
	return storage.ScalarFunction{Name: signalName(f.terminate), Args: in, Result: storage.TypeBoolean, Volatile: true, Eval: f.eval}
}

func (f signalFunction) eval(values []any) (any, error) {
	caller := callerOf(f.db, values[0])
	pid, _ := values[1].(int32)
	var timeout int64
	if f.timeout {
		timeout, _ = values[2].(int64)
		if timeout < 0 {
			return nil, caller.Fail(sqlstate.New(sqlstate.InvalidParameterValue, `"timeout" must not be negative`).
				WithDetail("pg_terminate_backend(%d, %d): timeout is %d.", pid, timeout, timeout).
				WithHint("Give the milliseconds to wait for the session to end, or 0 not to wait."))
		}
	}
	ok, err := f.sessions.Signal(caller.ID(), int64(pid), f.terminate)
	if err != nil {
		return nil, caller.Fail(err)
	}
	if ok && timeout > 0 {
		ok = f.sessions.AwaitEnd(caller.ID(), int64(pid), time.Duration(timeout)*time.Millisecond)
	}
	return ok, nil
}

// signalFunctions are the overloads of the function signalName(terminate).
func signalFunctions(db *storage.DB, sessions Sessions, terminate bool) []storage.ScalarFunction {
	fs := []storage.ScalarFunction{signalFunction{db: db, sessions: sessions, terminate: terminate}.function()}
	if terminate {
		fs = append(fs, signalFunction{db: db, sessions: sessions, terminate: true, timeout: true}.function())
	}
	return fs
}
