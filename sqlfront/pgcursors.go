package sqlfront

import (
	"slices"
	"strings"
	"time"
)

// Cursor is what pg_cursors shows of one cursor a session declared with
// DECLARE: Postgres' columns. Mallard's cursors are forward-only and send
// rows in the formats each FETCH asks for, so none is scrollable or binary.
type Cursor struct {
	Name         string
	Statement    string // the DECLARE statement as the client wrote it
	Holdable     bool   // declared WITH HOLD
	CreationTime time.Time
}

// cursorOpened records a cursor for pg_cursors.
func (a *activity) cursorOpened(c Cursor) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cursors == nil {
		a.cursors = map[string]Cursor{}
	}
	a.cursors[c.Name] = c
}

// cursorClosed forgets a cursor; a name that is no cursor changes nothing.
func (a *activity) cursorClosed(name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.cursors, name)
}

// openCursors returns the session's cursors by creation time. The caller
// holds a.mu.
func (a *activity) openCursors() []Cursor {
	out := make([]Cursor, 0, len(a.cursors))
	for _, c := range a.cursors {
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y Cursor) int {
		if c := x.CreationTime.Compare(y.CreationTime); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
	return out
}
