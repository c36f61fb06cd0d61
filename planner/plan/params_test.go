package plan_test

import (
	"testing"

	"github.com/mallard/mallard/planner/plan"
)

// TestCustomParameterNames: a name with a dot is a customized option, which
// SET may define when each of its parts is a simple identifier.
func TestCustomParameterNames(t *testing.T) {
	for _, tt := range []struct {
		name          string
		custom, valid bool
	}{
		{"myapp.user_id", true, true},
		{"request.jwt.claims", true, true},
		{"MyApp.X$1", true, true},
		{"app_1._x", true, true},
		{"é.ü", true, true},
		{"application_name", false, false},
		{"myapp.", true, false},
		{".x", true, false},
		{"a..b", true, false},
		{"my app.x", true, false},
		{"myapp.1x", true, false},
		{"myapp.$x", true, false},
		{"my-app.x", true, false},
	} {
		if got := plan.IsCustomParameter(tt.name); got != tt.custom {
			t.Errorf("IsCustomParameter(%q) = %v, want %v", tt.name, got, tt.custom)
		}
		if got := plan.ValidCustomParameter(tt.name); got != tt.valid {
			t.Errorf("ValidCustomParameter(%q) = %v, want %v", tt.name, got, tt.valid)
		}
	}
}
