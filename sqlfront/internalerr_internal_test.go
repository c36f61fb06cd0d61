package sqlfront

import (
	"strings"
	"testing"

	"github.com/mallard/mallard/sqlstate"
)

// TestErrorResponseCutsStackTrace: DuckDB's internal exceptions carry a C++
// stack trace, which the mapper puts in the hint; the client gets XX000,
// the first line, and a hint that names the server log instead.
func TestErrorResponseCutsStackTrace(t *testing.T) {
	tests := []struct {
		name string
		in   *sqlstate.Error
		want string // the hint sent
	}{
		{"internal", &sqlstate.Error{Code: sqlstate.InternalError, Message: "Wrong argument for owned_by",
			Hint: "Stack Trace: /bin/mallard(duckdb::Exception::ToJSON(...)+0x5b) [0x228e32b] This error signals an assertion failure within DuckDB."},
			"This is an internal error of DuckDB, the engine under Mallard; the server log has its details."},
		{"ordinary", &sqlstate.Error{Code: sqlstate.UndefinedTable, Message: "Table x does not exist", Hint: "Did you mean y?"}, "Did you mean y?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := errorResponse(tc.in)
			if r.Hint != tc.want || r.Code != string(tc.in.Code) || r.Message != tc.in.Message {
				t.Errorf("got %s %q hint %q, want %s %q hint %q", r.Code, r.Message, r.Hint, tc.in.Code, tc.in.Message, tc.want)
			}
			for _, f := range []string{r.Message, r.Detail, r.Hint} {
				if strings.Contains(f, "Stack Trace") || strings.Contains(f, "0x") {
					t.Errorf("stack trace reaches the client: %q", f)
				}
			}
		})
	}
}
