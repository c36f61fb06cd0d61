package classifier_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// spillOf writes rows of (x, colour) to a spill file in a test's
// temporary directory, keeping at most limit colours.
func spillOf(t *testing.T, xs []float64, colours []string, limit int) *classifier.Spill {
	t.Helper()
	features := []classifier.Feature{{Name: "x", Kind: classifier.FeatureNumeric}, {Name: "colour", Kind: classifier.FeatureCategorical}}
	s, err := classifier.NewSpill("test_fn", t.TempDir(), features, nil, limit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	rec := make([]float64, 0, 2*len(xs))
	for i, x := range xs {
		rec = append(rec, x, s.Category(1, colours[i]))
	}
	if err := s.Write(rec, len(xs)); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSpillReadsRowsBack(t *testing.T) {
	s := spillOf(t, []float64{1.5, math.NaN(), -3, 4}, []string{"red", "blue", "red", "green"}, 10)
	if s.Len() != 4 || s.Width() != 2 || s.RecordBytes() != 16 {
		t.Fatalf("Len, Width, RecordBytes = %d, %d, %d; want 4, 2, 16", s.Len(), s.Width(), s.RecordBytes())
	}
	got, err := s.Table([]int{3, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	x := got.Numeric[0].Values
	if x[0] != 4 || x[1] != 1.5 || !math.IsNaN(x[2]) {
		t.Errorf("x of rows 3, 0, 1 = %v; want [4 1.5 NaN]", x)
	}
	if c := got.Categorical[0].Values; !slices.Equal(c, []string{"green", "red", "blue"}) {
		t.Errorf("colour of rows 3, 0, 1 = %q", c)
	}
	if s.Inputs() != 4 { // x, and three colours
		t.Errorf("Inputs = %d; want 4", s.Inputs())
	}
	if _, err := s.Table([]int{4}); err == nil {
		t.Error("Table of row 4 of 4 did not fail")
	}
}

func TestSpillCategoriesPastLimit(t *testing.T) {
	s := spillOf(t, []float64{1, 2, 3}, []string{"a", "b", "c"}, 2)
	if over := s.Over(); !slices.Equal(over, []string{"colour"}) {
		t.Fatalf("Over = %q; want [colour]", over)
	}
	s.Drop(s.Over())
	got, err := s.Table([]int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Categorical) != 0 || len(got.Numeric) != 1 || s.Inputs() != 1 {
		t.Errorf("after Drop: %d text and %d numeric columns, %d inputs; want 0, 1, 1", len(got.Categorical), len(got.Numeric), s.Inputs())
	}
}

func TestSpillFingerprint(t *testing.T) {
	ctx := context.Background()
	fp := func(xs []float64, labels []string) string {
		s := spillOf(t, xs, []string{"a", "b"}, 10)
		got, err := classifier.Fingerprint(ctx, s.Layout(), labels, nil, nil, s)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	base := fp([]float64{1, 2}, []string{"yes", "no"})
	if len(base) != 16 || base != fp([]float64{1, 2}, []string{"yes", "no"}) {
		t.Fatalf("fingerprint %q is not 16 hex digits the same for the same data", base)
	}
	if base == fp([]float64{1, 2.5}, []string{"yes", "no"}) || base == fp([]float64{1, 2}, []string{"yes", "yes"}) {
		t.Error("a feature value or a label changed, and the fingerprint did not")
	}
}

func TestSplit(t *testing.T) {
	s := classifier.Splitting{Fn: "test_fn", Seed: 7, TestFraction: 0.2, ValFraction: 0.1}
	train, val, test, err := s.Split(100)
	if err != nil || len(train) != 70 || len(val) != 10 || len(test) != 20 {
		t.Fatalf("Split(100) = %d, %d, %d rows, %v; want 70, 10, 20", len(train), len(val), len(test), err)
	}
	all := slices.Concat(train, val, test)
	slices.Sort(all)
	for i, r := range all {
		if r != i {
			t.Fatalf("the parts do not hold each row once: %v", all)
		}
	}
	s.Parts = []string{classifier.PartTrain, classifier.PartTest, classifier.PartValidation, classifier.PartTrain}
	if train, val, test, _ = s.Split(4); !slices.Equal(train, []int{0, 3}) || !slices.Equal(val, []int{2}) || !slices.Equal(test, []int{1}) {
		t.Errorf("by parts: train %v val %v test %v", train, val, test)
	}
	s.Parts = []string{classifier.PartTest}
	if _, _, _, err := s.Split(1); sqlstate.CodeOf(err) != sqlstate.InvalidParameterValue {
		t.Errorf("a split without training rows: %v; want 22023", err)
	}
}

func TestParsePart(t *testing.T) {
	for in, want := range map[string]string{" Train": classifier.PartTrain, "VAL": classifier.PartValidation, "testing": classifier.PartTest, "dev": ""} {
		if got, ok := classifier.ParsePart(in); got != want || ok != (want != "") {
			t.Errorf("ParsePart(%q) = %q, %t; want %q", in, got, ok, want)
		}
	}
}
