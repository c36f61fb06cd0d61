//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/sqlfront"
)

// TestJSONBPretty compares jsonb_pretty with what PostgreSQL 15 prints.
func TestJSONBPretty(t *testing.T) {
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeExec)
	tests := []struct{ in, want string }{
		{`{"a": 1, "b": [1, {"c": null}], "d": {}, "e": [], "f": "{}"}`,
			"{\n    \"a\": 1,\n    \"b\": [\n        1,\n        {\n            \"c\": null\n        }\n    ],\n" +
				"    \"d\": {\n    },\n    \"e\": [\n    ],\n    \"f\": \"{}\"\n}"},
		{`[[], {}, "x"]`, "[\n    [\n    ],\n    {\n    },\n    \"x\"\n]"},
		{`{}`, "{\n}"},
		{`3`, "3"},
	}
	for _, tt := range tests {
		var got string
		if err := conn.QueryRow(context.Background(), "SELECT jsonb_pretty($1::jsonb)", tt.in).Scan(&got); err != nil || got != tt.want {
			t.Errorf("jsonb_pretty(%s) = %q (%v), want %q", tt.in, got, err, tt.want)
		}
	}
	var null *string
	if err := conn.QueryRow(context.Background(), "SELECT pg_catalog.jsonb_pretty(NULL::jsonb)").Scan(&null); err != nil || null != nil {
		t.Errorf("jsonb_pretty(NULL) = %v (%v), want NULL", null, err)
	}
}
