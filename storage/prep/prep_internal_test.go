//go:build duckdb_arrow

package prep

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

func TestColumnNames(t *testing.T) {
	for _, tc := range []struct {
		name     string
		entities []string
		times    []string
		want     []string
	}{
		{"lowered and joined", []string{"Mining and Extraction", "A--B"}, nil, []string{"mining_and_extraction", "a_b"}},
		{"leading digit takes the entity column's name", []string{"7up", "42"}, nil, []string{"class_id_7up", "class_id_42"}},
		{"nothing left", []string{"!!!"}, nil, []string{"class_id"}},
		{"repeats numbered", []string{"a b", "a-b", "A_B"}, nil, []string{"a_b", "a_b_2", "a_b_3"}},
		{"time columns taken", []string{"year", "x"}, []string{"Year"}, []string{"year_2", "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var timeCols []duckdb.ColumnInfo
			for _, n := range tc.times {
				timeCols = append(timeCols, duckdb.ColumnInfo{Name: n})
			}
			if got := columnNames("Class ID", tc.entities, timeCols); !slices.Equal(got, tc.want) {
				t.Errorf("columnNames(%q) = %q, want %q", tc.entities, got, tc.want)
			}
		})
	}
}

func TestTimeText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{int64(2024), "2024"},
		{"Q1", "Q1"},
		{time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), "2024-03-01"},
		{time.Date(2024, 3, 1, 12, 30, 5, 0, time.UTC), "2024-03-01 12:30:05"},
	} {
		if got := timeText(tc.v); got != tc.want {
			t.Errorf("timeText(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestFromItem(t *testing.T) {
	plan := func(q string) string { return "planned " + q }
	for _, tc := range []struct{ text, want string }{
		{"events", "events"},
		{" main.events ", "main.events"},
		{"SELECT * FROM events", "(planned SELECT * FROM events) AS mallard_source"},
		{"with x AS (SELECT 1) SELECT * FROM x", "(planned with x AS (SELECT 1) SELECT * FROM x) AS mallard_source"},
		{"(SELECT 1)", "(planned (SELECT 1)) AS mallard_source"},
		{"selections", "selections"},
	} {
		if got := FromItem(tc.text, plan); got != tc.want {
			t.Errorf("FromItem(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func testSource() *Source {
	col := func(name string, id storage.TypeID) storage.Column {
		return storage.Column{Name: name, Type: storage.Type{ID: id}}
	}
	return &Source{Fn: "rescale", Text: "t", From: "t", Cols: []storage.Column{
		col("Year", storage.TypeInteger), col("day", storage.TypeDate), col("x", storage.TypeDouble),
		col(`we"ird`, storage.TypeDecimal), col("blob", storage.TypeBlob), col("X", storage.TypeBigInt)}}
}

func TestSourceColumns(t *testing.T) {
	s := testSource()
	if i, err := s.Column("value", "X"); err != nil || i != 5 {
		t.Errorf(`Column("X") = %d, %v; want the exact match 5`, i, err)
	}
	if i, err := s.Column("value", "YEAR"); err != nil || i != 0 {
		t.Errorf(`Column("YEAR") = %d, %v; want 0 by case-insensitive match`, i, err)
	}
	_, err := s.Column("value", "nope")
	var e *sqlstate.Error
	if !errors.As(err, &e) || e.Code != sqlstate.UndefinedColumn ||
		e.Message != "rescale: value := 'nope' names no column of the source" {
		t.Errorf(`Column("nope") = %v`, err)
	}
	if got, _ := s.TimeColumns(nil); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("TimeColumns(nil) = %v, want [0 1] (by name, by type)", got)
	}
	if got := s.IdentList([]int{2, 3}); got != `"x", "we""ird"` {
		t.Errorf("IdentList = %s", got)
	}
}

func TestPassThrough(t *testing.T) {
	s := testSource()
	if expr, _, err := s.PassThrough(3); err != nil || expr != `CAST("we""ird" AS DOUBLE) AS "we""ird"` {
		t.Errorf("PassThrough(decimal) = %q, %v", expr, err)
	}
	_, _, err := s.PassThrough(4)
	var e *sqlstate.Error
	if !errors.As(err, &e) || e.Code != sqlstate.FeatureNotSupported {
		t.Errorf("PassThrough(blob) = %v, want 0A000", err)
	}
}

func TestSameValue(t *testing.T) {
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues([]int64{1, 1, 2}, nil)
	ib.AppendNull()
	ib.AppendNull()
	ints := ib.NewArray()
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues([]string{"a", "a", "b"}, nil)
	strs := sb.NewArray()
	for _, tc := range []struct {
		arr  arrow.Array
		i, j int
		want bool
	}{
		{ints, 0, 1, true}, {ints, 1, 2, false}, {ints, 2, 3, false}, {ints, 3, 4, true},
		{strs, 0, 1, true}, {strs, 1, 2, false},
	} {
		if got := sameValue(tc.arr, tc.i, tc.j); got != tc.want {
			t.Errorf("sameValue(%v, %d, %d) = %v, want %v", tc.arr, tc.i, tc.j, got, tc.want)
		}
	}
}

func TestTextAt(t *testing.T) {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues([]string{"ATL", "BOS"}, nil)
	vb := array.NewStringViewBuilder(memory.DefaultAllocator)
	vb.AppendValues([]string{"a much longer origin than twelve bytes"}, nil)
	db := array.NewDictionaryBuilder(memory.DefaultAllocator, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String})
	_ = db.(*array.BinaryDictionaryBuilder).AppendString("SFO")
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.Append(7)
	for _, tc := range []struct {
		arr  arrow.Array
		i    int
		want string
	}{
		{sb.NewArray(), 1, "BOS"}, {vb.NewArray(), 0, "a much longer origin than twelve bytes"},
		{db.NewArray(), 0, "SFO"}, {ib.NewArray(), 0, ""},
	} {
		if got := textAt(tc.arr, tc.i); got != tc.want {
			t.Errorf("textAt(%s, %d) = %q, want %q", tc.arr.DataType(), tc.i, got, tc.want)
		}
	}
}
