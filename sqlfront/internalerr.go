package sqlfront

import (
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// stackTraceMarker starts the C++ stack trace DuckDB appends to its
// internal exceptions, which the error mapper puts in the hint.
const stackTraceMarker = "Stack Trace:"

// clientSafe returns e as a client may see it: an error that carries
// DuckDB's stack trace (an internal exception) keeps its SQLSTATE and
// first line, and its hint points to the server log, which has the trace
// (see session.fail). Other errors are returned as they are.
func clientSafe(e *sqlstate.Error) *sqlstate.Error {
	if !strings.Contains(e.Hint, stackTraceMarker) && !strings.Contains(e.Detail, stackTraceMarker) && !strings.Contains(e.Message, stackTraceMarker) {
		return e
	}
	out := *e
	out.Message = strings.TrimSpace(cutTrace(out.Message))
	out.Detail = strings.TrimSpace(cutTrace(out.Detail))
	out.Hint = "This is an internal error of DuckDB, the engine under Mallard; the server log has its details."
	return &out
}

func cutTrace(s string) string {
	if i := strings.Index(s, stackTraceMarker); i >= 0 {
		return s[:i]
	}
	return s
}
