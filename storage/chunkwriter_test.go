package storage_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/mallard/mallard/storage"
)

// chunkSource is a table function that writes one Arrow batch through a
// ChunkWriter: every column but d with SetColumn, d in place with Doubles
// and SetNulls, and through SetValue any column SetColumn declines.
type chunkSource struct {
	batch    arrow.RecordBatch
	cols     []duckdb.ColumnInfo
	done     bool
	declined map[int]bool // the columns SetColumn declined, by index
}

func (s *chunkSource) ColumnInfos() []duckdb.ColumnInfo     { return s.cols }
func (s *chunkSource) Cardinality() *duckdb.CardinalityInfo { return nil }
func (s *chunkSource) Init()                                { s.done = false }

func (s *chunkSource) FillChunk(chunk duckdb.DataChunk) error {
	if s.done {
		return chunk.SetSize(0)
	}
	s.done = true
	n := int(s.batch.NumRows())
	w, err := storage.NewChunkWriter(&chunk, len(s.cols))
	if err != nil {
		return err
	}
	for col := range s.cols {
		arr := s.batch.Column(col)
		if s.cols[col].Name == "d" {
			if dst := w.Doubles(col, n); dst != nil {
				copy(dst, arr.(*array.Float64).Float64Values())
				w.SetNulls(col, arr, n)
			}
			continue
		}
		if w.SetColumn(col, arr, n) {
			continue
		}
		s.declined[col] = true
		for r := range n {
			var v any
			if arr.IsValid(r) {
				v = arr.(*array.Timestamp).Value(r).ToTime(arrow.Millisecond)
			}
			if err := chunk.SetValue(col, r, v); err != nil {
				return err
			}
		}
	}
	return chunk.SetSize(n)
}

// chunkBatch is the batch chunkSource writes: three rows, a NULL in every
// column, and a timestamp in milliseconds, which SetColumn declines.
func chunkBatch(t *testing.T) arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "d", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 0, 3}, []bool{true, false, true})
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.5, 1.5, 0}, []bool{true, true, false})
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"", "a string longer than twelve bytes", "x"}, []bool{false, true, true})
	b.Field(3).(*array.BooleanBuilder).AppendValues([]bool{true, false, false}, []bool{true, true, false})
	ms := time.Date(2024, 2, 29, 12, 30, 0, 250e6, time.UTC).UnixMilli()
	b.Field(4).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{arrow.Timestamp(ms), 0, arrow.Timestamp(ms)}, []bool{true, false, true})
	return b.NewRecordBatch()
}

// TestChunkWriter checks that the columns a ChunkWriter writes read back
// as written, NULLs included, whether the statement reads every column,
// some of them in another order, or none.
func TestChunkWriter(t *testing.T) {
	db, _ := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	batch := chunkBatch(t)
	defer batch.Release()
	var cols []duckdb.ColumnInfo
	for _, typ := range []duckdb.Type{duckdb.TYPE_INTEGER, duckdb.TYPE_DOUBLE, duckdb.TYPE_VARCHAR, duckdb.TYPE_BOOLEAN, duckdb.TYPE_TIMESTAMP} {
		info, err := duckdb.NewTypeInfo(typ)
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, duckdb.ColumnInfo{Name: batch.ColumnName(len(cols)), T: info})
	}
	src := &chunkSource{batch: batch, cols: cols, declined: map[int]bool{}}
	err = duckdb.RegisterTableUDF(conn, "chunk_writer_test", duckdb.ChunkTableFunction{
		BindArguments: func(map[string]any, ...any) (duckdb.ChunkTableSource, error) { return src, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		want        []string
	}{
		{"every column", "SELECT * FROM chunk_writer_test()", []string{
			"1|0.5|NULL|true|2024-02-29 12:30:00.25",
			"NULL|1.5|a string longer than twelve bytes|false|NULL",
			"3|NULL|x|NULL|2024-02-29 12:30:00.25",
		}},
		{"some columns, reordered", "SELECT s, ts, d FROM chunk_writer_test()", []string{
			"NULL|2024-02-29 12:30:00.25|0.5",
			"a string longer than twelve bytes|NULL|1.5",
			"x|2024-02-29 12:30:00.25|NULL",
		}},
		{"no column", "SELECT count(*) FROM chunk_writer_test()", []string{"3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := queryRows(t, conn, tt.query); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("%s:\n got %q\nwant %q", tt.query, got, tt.want)
			}
		})
	}
	if len(src.declined) != 1 || !src.declined[4] {
		t.Errorf("SetColumn declined columns %v, want only the millisecond timestamp, 4", src.declined)
	}
}

// queryRows runs query and renders each row as its values, cast to
// VARCHAR, joined by "|".
func queryRows(t *testing.T, conn *sql.Conn, query string) []string {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), "SELECT COLUMNS(*)::VARCHAR FROM ("+query+")")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(names))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		cells := make([]string, len(vals))
		for i, v := range vals {
			cells[i] = fmt.Sprint(v.String)
			if !v.Valid {
				cells[i] = "NULL"
			}
		}
		out = append(out, strings.Join(cells, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
