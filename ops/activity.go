//go:build duckdb_arrow

package ops

import (
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
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

func activityUDF(db *storage.DB, sessions Sessions) duckdb.ChunkTableFunction {
	return duckdb.ChunkTableFunction{
		Config: duckdb.TableFunctionConfig{Arguments: []duckdb.TypeInfo{typeInfo(duckdb.TYPE_VARCHAR)}},
		BindArguments: func(_ map[string]any, args ...any) (duckdb.ChunkTableSource, error) {
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

var activityColumns = []struct {
	name string
	t    duckdb.Type
}{
	{"pid", duckdb.TYPE_INTEGER}, {"usename", duckdb.TYPE_VARCHAR}, {"application_name", duckdb.TYPE_VARCHAR},
	{"client_addr", duckdb.TYPE_VARCHAR}, {"client_port", duckdb.TYPE_INTEGER},
	{"backend_start", duckdb.TYPE_TIMESTAMP_TZ}, {"xact_start", duckdb.TYPE_TIMESTAMP_TZ},
	{"query_start", duckdb.TYPE_TIMESTAMP_TZ}, {"state_change", duckdb.TYPE_TIMESTAMP_TZ},
	{"state", duckdb.TYPE_VARCHAR}, {"query", duckdb.TYPE_VARCHAR}, {"backend_type", duckdb.TYPE_VARCHAR},
}

func (a *activityRows) ColumnInfos() []duckdb.ColumnInfo {
	out := make([]duckdb.ColumnInfo, len(activityColumns))
	for i, c := range activityColumns {
		out[i] = duckdb.ColumnInfo{Name: c.name, T: typeInfo(c.t)}
	}
	return out
}

func (a *activityRows) Cardinality() *duckdb.CardinalityInfo { return nil }

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

// FillChunk writes the next sessions, as many as the chunk holds.
func (a *activityRows) FillChunk(chunk duckdb.DataChunk) error {
	n := 0
	for ; n < duckdb.GetDataChunkCapacity() && a.next < len(a.rows); n++ {
		b := a.rows[a.next]
		a.next++
		values := []any{b.PID, b.User, b.ApplicationName, nil, nil, nil, nil, nil, nil, nil, insufficientPrivilege, "client backend"}
		if a.visible(b) {
			values = []any{b.PID, b.User, b.ApplicationName, text(b.ClientAddr), port(b.ClientPort),
				timestamp(b.BackendStart), timestamp(b.XactStart), timestamp(b.QueryStart), timestamp(b.StateChange),
				b.State, b.Query, "client backend"}
		}
		for col, v := range values {
			if err := chunk.SetValue(col, n, v); err != nil {
				return err
			}
		}
	}
	return chunk.SetSize(n)
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

func typeInfo(t duckdb.Type) duckdb.TypeInfo {
	info, err := duckdb.NewTypeInfo(t)
	if err != nil {
		panic(err) // only for a type that needs more than its id: a bug here
	}
	return info
}
