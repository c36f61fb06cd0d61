package storage_test

import (
	"context"
	"testing"

	"github.com/mallard/mallard/storage"
)

// TestColumnsUnknownUntilRun: a statement whose table function takes a
// parameter has no columns before it runs (DuckDB binds the function once
// the values are known); they come with the result.
func TestColumnsUnknownUntilRun(t *testing.T) {
	_, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	st, err := c.Prepare(ctx, "SELECT * FROM range($1::BIGINT)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if cols := st.Columns(); cols != nil || st.Result() != storage.ResultRows {
		t.Fatalf("before running: columns %v, result %v; want none, rows", cols, st.Result())
	}
	if err := st.Bind([]any{int64(3)}); err != nil {
		t.Fatal(err)
	}
	rows, err := st.Query(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if cols := rows.Columns(); len(cols) != 1 || cols[0].Name != "range" || cols[0].Type.ID != storage.TypeBigInt {
		t.Fatalf("result columns %v, want range BIGINT", cols)
	}
}
