package job_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/storage"
)

// readParquet reads the file at path through DuckDB's read_parquet, in
// the file's order: its columns' names and types, and every row's values
// as Go values (float64 bits for a DOUBLE, so that -0 and NaN compare).
func readParquet(t *testing.T, path string) (cols []string, rows [][]any) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	r, err := db.Read(ctx, "SELECT * FROM read_parquet('"+path+"')")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range r.Columns() {
		cols = append(cols, c.Name+" "+c.Type.PGName())
	}
	for r.Next() {
		b := r.Batch()
		for i := range int(b.NumRows()) {
			var row []any
			for _, col := range b.Columns() {
				switch a := col.(type) {
				case *array.Float64:
					row = append(row, math.Float64bits(a.Value(i)))
				case *array.Int64:
					row = append(row, a.Value(i))
				case *array.Int32:
					row = append(row, a.Value(i))
				case *array.Boolean:
					row = append(row, a.Value(i))
				default:
					t.Fatalf("column of type %s", col.DataType())
				}
			}
			rows = append(rows, row)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return cols, rows
}

// TestWriteMatrixReadsBack checks that DuckDB reads a matrix WriteMatrix
// wrote as it was: t BIGINT then e0, e1, ... DOUBLE, every value bit for
// bit, in time order.
func TestWriteMatrixReadsBack(t *testing.T) {
	m := series.Matrix{T: 3, N: 4, Values: []float64{
		0.1, -1.0 / 3, 5e-324, math.MaxFloat64,
		3, math.Copysign(0, -1), 1e-300, -2.5e300,
		math.Nextafter(1, 2), 0, 123456789.123456789, -7,
	}}
	path := filepath.Join(t.TempDir(), "m.parquet")
	if err := job.WriteMatrix(context.Background(), path, m); err != nil {
		t.Fatal(err)
	}
	cols, rows := readParquet(t, path)
	if want := []string{"t bigint", "e0 double precision", "e1 double precision", "e2 double precision", "e3 double precision"}; !reflect.DeepEqual(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}
	var want [][]any
	for i := range m.T {
		row := []any{int64(i)}
		for _, v := range m.Row(i) {
			row = append(row, math.Float64bits(v))
		}
		want = append(want, row)
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows\n%v\nwant\n%v", rows, want)
	}
}

// TestWriteShardsReadsBack checks that each rank's file WriteShards wrote
// holds its own users' training and test ratings, by user then item, with
// the columns the ranks read.
func TestWriteShardsReadsBack(t *testing.T) {
	// Three users, five items; user 0's test item 1 falls between its
	// training items 0 and 3.
	train := recommender.Ratings{Users: 3, Items: 5, Ptr: []int{0, 2, 3, 5},
		Item: []int32{0, 3, 4, 1, 2}, Value: []float32{1.5, 0.1, 5, 3.25, 2}}
	test := recommender.Ratings{Users: 3, Items: 5, Ptr: []int{0, 1, 1, 2},
		Item: []int32{1, 4}, Value: []float32{4, 2.5}}
	dir := t.TempDir()
	if err := job.WriteShards(context.Background(), dir, train, test, recommender.Shard{Processes: 2, Users: 3, Items: 5}); err != nil {
		t.Fatal(err)
	}
	f := func(v float32) uint64 { return math.Float64bits(float64(v)) }
	want := [][][]any{
		{{int64(0), int32(0), f(1.5), false}, {int64(0), int32(1), f(4), true}, {int64(0), int32(3), f(0.1), false},
			{int64(2), int32(1), f(3.25), false}, {int64(2), int32(2), f(2), false}, {int64(2), int32(4), f(2.5), true}},
		{{int64(1), int32(4), f(5), false}},
	}
	for p := range 2 {
		cols, rows := readParquet(t, filepath.Join(dir, fmt.Sprintf("shard-%05d.parquet", p)))
		if w := []string{"user_index bigint", "item_index integer", "rating double precision", "test boolean"}; !reflect.DeepEqual(cols, w) {
			t.Errorf("rank %d: columns %v, want %v", p, cols, w)
		}
		if !reflect.DeepEqual(rows, want[p]) {
			t.Errorf("rank %d: rows\n%v\nwant\n%v", p, rows, want[p])
		}
	}
}

// TestWriteMatrixRowGroups checks a matrix too large for one row group:
// DuckDB reads every row back, in order, from several row groups.
func TestWriteMatrixRowGroups(t *testing.T) {
	const rows, entities = 700, 2047 // 1,433,600 values
	m := series.Matrix{T: rows, N: entities, Values: make([]float64, rows*entities)}
	for i := range m.Values {
		m.Values[i] = float64(i) / 7
	}
	path := filepath.Join(t.TempDir(), "big.parquet")
	if err := job.WriteMatrix(context.Background(), path, m); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	var groups int64
	if err := db.SQL().QueryRowContext(ctx, "SELECT count(DISTINCT row_group_id) FROM parquet_metadata('"+path+"')").Scan(&groups); err != nil {
		t.Fatal(err)
	}
	if groups < 2 {
		t.Errorf("%d row groups; want several", groups)
	}
	r, err := db.Read(ctx, "SELECT * FROM read_parquet('"+path+"')")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	row := 0
	for r.Next() {
		b := r.Batch()
		for i := range int(b.NumRows()) {
			if got := b.Column(0).(*array.Int64).Value(i); got != int64(row) {
				t.Fatalf("row %d: t = %d", row, got)
			}
			for e, want := range m.Row(row) {
				if got := b.Column(1 + e).(*array.Float64).Value(i); got != want {
					t.Fatalf("row %d, e%d = %v, want %v", row, e, got, want)
				}
			}
			row++
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if row != rows {
		t.Errorf("read %d rows, want %d", row, rows)
	}
}
