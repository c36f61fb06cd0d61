//go:build duckdb_arrow

package prep

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// codeOf is err's SQLSTATE, or "" when it has none.
func codeOf(err error) sqlstate.Code {
	var e *sqlstate.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// RatingColumns takes integer or text ids and numeric ratings, and
// refuses other types with 42804.
func TestRatingColumns(t *testing.T) {
	col := func(name string, id storage.TypeID) storage.Column {
		return storage.Column{Name: name, Type: storage.Type{ID: id}}
	}
	s := &Source{Fn: "train_recommender", Text: "r", From: "r", Cols: []storage.Column{col("U", storage.TypeVarchar),
		col("item", storage.TypeSmallInt), col("stars", storage.TypeDecimal), col("big", storage.TypeUBigInt), col("day", storage.TypeDate)}}
	cols, err := s.RatingColumns("u", "item", "stars")
	if want := (recommender.Columns{User: "U", Item: "item", Rating: "stars", UserIsText: true}); err != nil || cols != want {
		t.Errorf("RatingColumns = %+v, %v; want %+v", cols, err, want)
	}
	if cols, err := s.RatingColumns("u", "item", ""); err != nil || !cols.Implicit || cols.Rating != "" {
		t.Errorf("RatingColumns without a rating = %+v, %v; want implicit", cols, err)
	}
	for _, tc := range [][3]string{{"big", "item", "stars"}, {"u", "item", "day"}, {"u", "nope", "stars"}} {
		want := sqlstate.DatatypeMismatch
		if tc[1] == "nope" {
			want = sqlstate.UndefinedColumn
		}
		if _, err := s.RatingColumns(tc[0], tc[1], tc[2]); codeOf(err) != want {
			t.Errorf("RatingColumns%v: %v; want %s", tc, err, want)
		}
	}
}

// batch is a batch of user, item and rating columns; a nil pointer is
// NULL.
func batch(users []string, items []int64, vals []*float64) arrow.RecordBatch {
	ub := array.NewStringBuilder(memory.DefaultAllocator)
	ub.AppendValues(users, nil)
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues(items, nil)
	vb := array.NewFloat64Builder(memory.DefaultAllocator)
	for _, v := range vals {
		if v == nil {
			vb.AppendNull()
		} else {
			vb.Append(*v)
		}
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "u", Type: arrow.BinaryTypes.String},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64}, {Name: "r", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{ub.NewArray(), ib.NewArray(), vb.NewArray()}, int64(len(users)))
}

// addBatch adds a batch's ratings, refuses a NULL rating with 23502 and
// a second rating of one item with 23505 unless duplicates are averaged.
func TestRatingsAddBatch(t *testing.T) {
	one, two := 1.0, 2.0
	q := &Ratings{Src: &Source{Fn: "train_recommender"}, Cols: recommender.Columns{User: "u", Item: "i", Rating: "r", UserIsText: true}}
	b := recommender.NewBuilder(recommender.DuplicatesError)
	if err := q.addBatch(b, batch([]string{"a", "b"}, []int64{1, 2}, []*float64{&one, &two}), `"r"`); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Finish(); err != nil || got.Len() != 2 || got.Users != 2 || got.Items != 2 {
		t.Errorf("two ratings: %d ratings of %d users, %d items, %v", got.Len(), got.Users, got.Items, err)
	}
	err := q.addBatch(recommender.NewBuilder(recommender.DuplicatesError), batch([]string{"a"}, []int64{1}, []*float64{nil}), `"r"`)
	if codeOf(err) != sqlstate.NullValueNotAllowed {
		t.Errorf("a NULL rating: %v; want 23502", err)
	}
	dup := batch([]string{"a", "a"}, []int64{1, 1}, []*float64{&one, &two})
	b = recommender.NewBuilder(recommender.DuplicatesError)
	err = q.addBatch(b, dup, `"r"`)
	if err == nil {
		_, err = b.Finish()
		err = q.addError(err)
	}
	if codeOf(err) != sqlstate.UniqueViolation {
		t.Errorf("a duplicate rating: %v; want 23505", err)
	}
	avg, _ := recommender.ParseDuplicates("avg")
	b = recommender.NewBuilder(avg)
	if err := q.addBatch(b, dup, `"r"`); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Finish(); err != nil || got.Len() != 1 || b.Merged() != 1 {
		t.Errorf("a duplicate averaged: %d ratings, %d merged, %v; want 1 and 1", got.Len(), b.Merged(), err)
	}
}
