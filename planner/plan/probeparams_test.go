package plan_test

import (
	"testing"

	"github.com/mallard/mallard/planner/plan"
)

func TestProbeParams(t *testing.T) {
	types := []string{"BIGINT", "", "VARCHAR"}
	for _, tt := range []struct{ name, input, want string }{
		{"typed and untyped", "SELECT * FROM f($1, x := $2::int)", "SELECT * FROM f(CAST(NULL AS BIGINT), x := '<mallard: no value before Bind>'::int)"},
		{"in quotes and comments", "SELECT '$1', \"$1\", $$ $1 $$ /* $1 */ -- $1\n, $3", "SELECT '$1', \"$1\", $$ $1 $$ /* $1 */ -- $1\n, '<mallard: no value before Bind>'"},
		{"beyond the types", "SELECT $4, $0", "SELECT $4, $0"},
		{"a word after a dollar", "SELECT $ 1, $a", "SELECT $ 1, $a"},
		{"none", "SELECT 1", "SELECT 1"},
	} {
		if got := plan.ProbeParams(tt.input, types); got != tt.want {
			t.Errorf("%s: ProbeParams(%q) = %q, want %q", tt.name, tt.input, got, tt.want)
		}
	}
}
