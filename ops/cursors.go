//go:build duckdb_arrow

package ops

import (
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// cursorsFunction is the table function pg_cursors reads: the cursors of
// the session whose connection token is its argument, as Postgres' view
// shows only the calling session's.
const cursorsFunction = "mallard_cursors"

// cursorsColumns are cursorsFunction's output columns.
var cursorsColumns = []storage.Column{
	col("name", storage.TypeVarchar), col("statement", storage.TypeVarchar), col("is_holdable", storage.TypeBoolean),
	col("creation_time", storage.TypeTimestampTZ),
}

// cursorsTable is the declaration of cursorsFunction.
func cursorsTable(db *storage.DB, sessions Sessions) storage.TableFunction {
	return storage.TableFunction{
		Name: cursorsFunction, Args: []storage.TypeID{storage.TypeVarchar}, Columns: cursorsColumns,
		Bind: func(args []any) (storage.TableRows, error) {
			token, _ := args[0].(string)
			return &cursorRows{caller: db.CallerOf(token), sessions: sessions}, nil
		},
	}
}

// cursorRows lists the caller's cursors as they are when the statement
// runs; a caller that is no session has none.
type cursorRows struct {
	caller   storage.Caller
	sessions Sessions
	rows     []sqlfront.Cursor
}

func (c *cursorRows) Init() {
	c.rows = nil
	if c.caller.ID() == 0 {
		return
	}
	for _, b := range c.sessions.Activity() {
		if b.Conn == c.caller.ID() {
			c.rows = b.Cursors
		}
	}
}

// Next returns the next cursor's row.
func (c *cursorRows) Next() ([]any, error) {
	if len(c.rows) == 0 {
		return nil, nil
	}
	r := c.rows[0]
	c.rows = c.rows[1:]
	return []any{r.Name, r.Statement, r.Holdable, r.CreationTime}, nil
}
