//go:build duckdb_arrow

package ops

import (
	"time"

	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// activityFunction is the table function pg_stat_activity reads: one row
// per client session, as seen by the session whose connection token is
// its argument (see storage.CallerVariable).
const activityFunction = "mallard_activity"

// insufficientPrivilege is the query a session shows a read-only caller
// of another role, as Postgres shows it.
const insufficientPrivilege = "<insufficient privilege>"

// activityTable is the declaration of activityFunction.
func activityTable(db *storage.DB, sessions Sessions) storage.TableFunction {
	return storage.TableFunction{
		Name: activityFunction, Args: []storage.TypeID{storage.TypeVarchar}, Columns: activityColumns,
		Bind: func(args []any) (storage.TableRows, error) {
			token, _ := args[0].(string)
			return &activityRows{caller: db.CallerOf(token), sessions: sessions}, nil
		},
	}
}

// activityRows lists the sessions as they are when the statement runs
// (Init), not when it was prepared.
type activityRows struct {
	caller   storage.Caller
	sessions Sessions
	rows     []sqlfront.Backend
	next     int
	// user is the caller's role, "" for a caller that is no session.
	user string
}

// activityColumns are activityFunction's output columns.
var activityColumns = []storage.Column{
	col("pid", storage.TypeInteger), col("usename", storage.TypeVarchar), col("application_name", storage.TypeVarchar),
	col("client_addr", storage.TypeVarchar), col("client_port", storage.TypeInteger),
	col("backend_start", storage.TypeTimestampTZ), col("xact_start", storage.TypeTimestampTZ),
	col("query_start", storage.TypeTimestampTZ), col("state_change", storage.TypeTimestampTZ),
	col("state", storage.TypeVarchar), col("query", storage.TypeVarchar), col("backend_type", storage.TypeVarchar),
}

// col is the column name of type id.
func col(name string, id storage.TypeID) storage.Column {
	return storage.Column{Name: name, Type: storage.Type{ID: id}}
}

func (a *activityRows) Init() {
	a.rows, a.next = a.sessions.Activity(), 0
	for _, b := range a.rows {
		if a.caller.ID() != 0 && b.Conn == a.caller.ID() {
			a.user = b.User
		}
	}
}

// visible reports whether the caller may see what b runs: the owner role
// sees every session, the read-only role those of its own role.
func (a *activityRows) visible(b sqlfront.Backend) bool {
	if a.user == "" {
		return false
	}
	return !a.caller.ReadOnly() || b.User == a.user
}

// Next returns the next session's row.
func (a *activityRows) Next() ([]any, error) {
	if a.next >= len(a.rows) {
		return nil, nil
	}
	b := a.rows[a.next]
	a.next++
	if !a.visible(b) {
		return []any{b.PID, b.User, b.ApplicationName, nil, nil, nil, nil, nil, nil, nil, insufficientPrivilege, "client backend"}, nil
	}
	return []any{b.PID, b.User, b.ApplicationName, text(b.ClientAddr), port(b.ClientPort),
		timestamp(b.BackendStart), timestamp(b.XactStart), timestamp(b.QueryStart), timestamp(b.StateChange),
		b.State, b.Query, "client backend"}, nil
}

// text, port and timestamp are NULL where the value is missing.
func text(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func port(p int32) any {
	if p < 0 {
		return nil
	}
	return p
}

func timestamp(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}
