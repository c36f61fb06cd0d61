package catalog_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mallard/mallard/planner/catalog"
	"github.com/mallard/mallard/planner/plan"
)

// TestSignatures: a declared signature becomes the row pg_proc and the
// pg_get_function_* functions read, with names quoted as PostgreSQL
// quotes them, types resolved to their OIDs and the result's columns
// after the arguments; a name holding a quote stays a name.
func TestSignatures(t *testing.T) {
	sigs := []plan.Signature{
		{Name: "f'x", Args: []plan.Argument{{Name: "source", Type: "text"}, {Name: "window", Type: "bigint", Default: "4"},
			{Name: "it's", Type: "integer[]", Default: "ARRAY[16, 16]"}},
			Result: []plan.Column{{Name: "epoch", Type: "bigint"}, {Name: "loss", Type: "double precision"}}},
		{Name: "g", Args: []plan.Argument{{Name: "m", Type: "text", Default: "'a''b'::text"}}},
	}
	_, conn := session(t, catalog.Signatures(sigs)...)
	got := rows(t, conn, `SELECT proname, args, identity_args, result, argtypes, argnames, allargtypes, argmodes, nargdefaults
		FROM mallard_catalog.pg.mallard_signatures ORDER BY proname`)
	want := [][]string{
		{"f'x", `source text, "window" bigint DEFAULT 4, "it's" integer[] DEFAULT ARRAY[16, 16]`, `source text, "window" bigint, "it's" integer[]`,
			"TABLE(epoch bigint, loss double precision)", "{25,20,1007}", "{source,window,it's,epoch,loss}", "{25,20,1007,20,701}", "{i,i,i,t,t}", "2"},
		{"g", "m text DEFAULT 'a''b'::text", "m text", "SETOF record", "{25}", "{m}", "NULL", "NULL", "1"},
	}
	for i := range want {
		if i >= len(got) || strings.Join(got[i], " | ") != strings.Join(want[i], " | ") {
			t.Errorf("row %d:\n got %v\nwant %v", i, got, want[i])
		}
	}
}

// TestSignatureOfUnknownType: a type PostgreSQL does not know fails the
// install, naming it.
func TestSignatureOfUnknownType(t *testing.T) {
	_, conn := session(t)
	stmts := catalog.Signatures([]plan.Signature{{Name: "f", Args: []plan.Argument{{Name: "x", Type: "nosuchtype"}}}})
	_, err := conn.ExecContext(context.Background(), stmts[0])
	if err == nil || !strings.Contains(err.Error(), "nosuchtype") {
		t.Errorf("err = %v, want one naming nosuchtype", err)
	}
}
