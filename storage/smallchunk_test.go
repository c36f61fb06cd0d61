package storage_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/storage"
)

// smallChunkQuery returns n rows of every type small chunks are built
// from in Go, with a NULL in every column of every third row and strings
// on both sides of DuckDB's 12-byte inline limit.
const smallChunkQuery = `SELECT
	CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
	CASE WHEN i % 3 = 1 THEN NULL ELSE i END::TINYINT AS i1,
	CASE WHEN i % 3 = 2 THEN NULL ELSE -i END::SMALLINT AS i2,
	CASE WHEN i % 3 = 0 THEN NULL ELSE i * 1000 END::INTEGER AS i4,
	CASE WHEN i % 3 = 1 THEN NULL ELSE i * 100000000000 END::BIGINT AS i8,
	i::UTINYINT AS u1, i::USMALLINT AS u2, i::UINTEGER AS u4, i::UBIGINT AS u8,
	CASE WHEN i % 3 = 2 THEN NULL ELSE i / 7 END::FLOAT AS f4,
	CASE WHEN i % 3 = 0 THEN NULL ELSE i / 7 END::DOUBLE AS f8,
	CASE WHEN i % 3 = 1 THEN NULL ELSE DATE '2024-01-01' + i::INTEGER END AS d,
	CASE WHEN i % 3 = 2 THEN NULL ELSE TIMESTAMP '2024-01-01 10:00:00.123456' + to_seconds(i) END AS ts,
	CASE WHEN i % 3 = 0 THEN NULL ELSE TIMESTAMPTZ '2024-01-01 10:00:00+00' + to_seconds(i) END AS tstz,
	CASE WHEN i % 3 = 1 THEN NULL ELSE repeat('x', (i % 20)::INTEGER) || 'é' END AS s,
	'' AS empty
FROM range($1::BIGINT) t(i)`

// TestSmallChunksMatchArrow checks that a small chunk built in Go equals
// DuckDB's own Arrow conversion of it, value for value and type for type.
func TestSmallChunksMatchArrow(t *testing.T) {
	_, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	read := func(n int) []arrow.RecordBatch {
		st, err := c.Prepare(ctx, smallChunkQuery)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.Bind([]any{fmt.Sprint(n)}); err != nil {
			t.Fatal(err)
		}
		rows, err := st.Query(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !storage.BuiltInGo(rows) {
			t.Fatalf("the columns of %v are not all built in Go", rows.Columns())
		}
		var out []arrow.RecordBatch
		for rows.Next() {
			b := rows.Batch()
			b.Retain()
			out = append(out, b)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, n := range []int{1, 3, 17, 64} {
		direct := read(n)
		storage.SetSmallChunk(t, 0)
		converted := read(n)
		storage.SetSmallChunk(t, 64)
		if len(direct) != 1 || len(converted) != 1 {
			t.Fatalf("%d rows: %d and %d batches, want 1", n, len(direct), len(converted))
		}
		if !array.RecordEqual(direct[0], converted[0]) {
			t.Errorf("%d rows: built in Go\n%v\nDuckDB's conversion\n%v", n, direct[0], converted[0])
		}
		if !direct[0].Schema().Equal(converted[0].Schema()) {
			t.Errorf("%d rows: schema %v, want %v", n, direct[0].Schema(), converted[0].Schema())
		}
		if nulls := direct[0].Column(0).NullN(); n >= 3 && nulls == 0 {
			t.Errorf("%d rows: no NULLs in column b", n)
		}
		for _, b := range append(direct, converted...) {
			b.Release()
		}
	}
}

// BenchmarkSmallResult executes a prepared one-row query and reads its
// result, with the chunk built in Go and with DuckDB's Arrow conversion.
func BenchmarkSmallResult(b *testing.B) {
	_, c := openConn(&testing.T{}, storage.MemoryPath)
	ctx := context.Background()
	st, err := c.Prepare(ctx, "SELECT $1::INTEGER AS i")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, bench := range []struct {
		name  string
		limit int
	}{{"go", 64}, {"arrow", 0}} {
		b.Run(bench.name, func(b *testing.B) {
			storage.SetSmallChunk(b, bench.limit)
			for b.Loop() {
				if err := st.Bind([]any{int32(42)}); err != nil {
					b.Fatal(err)
				}
				rows, err := st.Query(ctx)
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
					if rows.Batch().NumRows() != 1 {
						b.Fatal("want one row")
					}
				}
				if err := rows.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
