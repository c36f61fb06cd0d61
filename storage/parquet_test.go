package storage_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/storage"
)

// TestParquetScan reads two Parquet files as one table: columns described
// with their types, cast, and ordered, with names and paths that need
// quoting.
func TestParquetScan(t *testing.T) {
	ctx := context.Background()
	db, conn := openConn(t, storage.MemoryPath)
	dir := filepath.Join(t.TempDir(), "it's")
	var files []string
	for i, rows := range []string{"(3, DATE '2020-01-03', 1.5), (1, DATE '2020-01-01', 2)", "(2, DATE '2020-01-02', NULL)"} {
		path := filepath.Join(dir+string(rune('a'+i)), "part.parquet")
		files = append(files, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := conn.Exec(ctx, "COPY (SELECT * FROM (VALUES "+rows+`) v("t ""k""", day, x)) TO '`+
			strings.ReplaceAll(path, "'", "''")+"' (FORMAT parquet)"); err != nil {
			t.Fatal(err)
		}
	}
	scan := storage.Parquet{Files: files, OrderBy: []string{`t "k"`}, Columns: []storage.Cast{
		{Column: "day", Type: storage.TypeVarchar}, {Column: `t "k"`, Type: storage.TypeDouble}, {Column: "x", Type: storage.TypeBigInt}}}
	cols, err := scan.Describe(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != 3 || cols[0].Name != `t "k"` || cols[0].Type.ID != storage.TypeInteger || cols[1].Type.ID != storage.TypeDate {
		t.Fatalf("columns %+v", cols)
	}
	r, err := scan.Read(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var days []string
	var ts []float64
	var nulls int
	for r.Next() {
		b := r.Batch()
		for i := range int(b.NumRows()) {
			days = append(days, b.Column(0).(*array.String).Value(i))
			ts = append(ts, b.Column(1).(*array.Float64).Value(i))
			if b.Column(2).(*array.Int64).IsNull(i) {
				nulls++
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(days, []string{"2020-01-01", "2020-01-02", "2020-01-03"}) || !slices.Equal(ts, []float64{1, 2, 3}) || nulls != 1 {
		t.Errorf("rows: days %v, t %v, %d NULL x", days, ts, nulls)
	}
}
