//go:build duckdb_arrow

package prep_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

// batch is a batch as FeatureList reads x (DOUBLE), t (VARCHAR) and px
// (DOUBLE[]), after one column the features do not read: x is NULL in
// row 1, t in row 2, and row 2's image has lens[2] values.
func batch(t *testing.T, lens []int) arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, {Name: "t", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "px", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64)}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"a", "b", "c"}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{1.5, 0, -2}, []bool{true, false, true})
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"red", "blue", ""}, []bool{true, true, false})
	list := b.Field(3).(*array.ListBuilder)
	for r, n := range lens {
		list.Append(true)
		for i := range n {
			list.ValueBuilder().(*array.Float64Builder).Append(float64(10*r + i))
		}
	}
	rec := b.NewRecordBatch()
	t.Cleanup(rec.Release)
	return rec
}

var rowCols = classifier.Columns{Target: "label", Features: []classifier.Feature{
	{Name: "x", Kind: classifier.FeatureNumeric}, {Name: "t", Kind: classifier.FeatureCategorical}}}

// TestFeaturesAppend: a NULL number is NaN and a NULL text the category "".
func TestFeaturesAppend(t *testing.T) {
	if got := prep.FeatureList(rowCols); !slices.Equal(got, []string{`CAST("x" AS DOUBLE)`, `CAST("t" AS VARCHAR)`}) {
		t.Errorf("FeatureList = %q", got)
	}
	tab := classifier.NewTable(rowCols.Features, nil)
	a := &prep.Features{Fn: "predict", Cols: rowCols, First: 1}
	if err := a.Append(tab, batch(t, []int{4, 4, 4})); err != nil {
		t.Fatal(err)
	}
	x := tab.Numeric[0].Values
	if len(x) != 3 || x[0] != 1.5 || !math.IsNaN(x[1]) || x[2] != -2 {
		t.Errorf("x = %v; want [1.5 NaN -2]", x)
	}
	if got := tab.Categorical[0].Values; !slices.Equal(got, []string{"red", "blue", ""}) {
		t.Errorf("t = %q; want [red blue \"\"]", got)
	}
}

// TestFeaturesSpill: the rows written to a spill file read back as they
// were appended; an image of the wrong length is 22023 naming its row.
func TestFeaturesSpill(t *testing.T) {
	s, err := classifier.NewSpill("train_classifier", t.TempDir(), rowCols.Features, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := (&prep.Features{Fn: "train_classifier", Cols: rowCols, First: 1}).Spill(s, batch(t, []int{4, 4, 4})); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	tab, err := s.Table([]int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if x := tab.Numeric[0].Values; len(x) != 3 || x[0] != 1.5 || !math.IsNaN(x[1]) || x[2] != -2 {
		t.Errorf("x read back = %v; want [1.5 NaN -2]", x)
	}
	if got := tab.Categorical[0].Values; !slices.Equal(got, []string{"red", "blue", ""}) {
		t.Errorf("t read back = %q", got)
	}

	images := classifier.Columns{Target: "label", Shape: []int{1, 2, 2}, Features: []classifier.Feature{{Name: "px", Kind: classifier.FeatureImage}}}
	img, err := classifier.NewSpill("train_classifier", t.TempDir(), images.Features, images.Shape, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	err = (&prep.Features{Fn: "train_classifier", Cols: images, First: 3}).Spill(img, batch(t, []int{4, 4, 5}))
	if sqlstate.CodeOf(err) != sqlstate.InvalidParameterValue || !strings.Contains(err.Error(), "image column px has 5 values in row 3, but shape := [1, 2, 2] needs 4") {
		t.Errorf("Spill of a 5-value image: %v; want 22023 naming row 3", err)
	}
}
