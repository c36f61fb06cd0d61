package classifier_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

func TestStoredRoundTrip(t *testing.T) {
	tab := &classifier.Table{Numeric: []classifier.NumericColumn{{Name: "x", Values: []float64{0, 1, 2, 3, 4, 5}}}}
	opts := classifier.DefaultOptions()
	opts.Epochs = 2
	var state *classifier.State
	m, err := classifier.Fit(context.Background(), opts, tab, classifier.Target{Labels: []string{"a", "a", "a", "b", "b", "b"}}, nil,
		func(e classifier.Epoch) error { state = e.State(); return nil })
	if err != nil {
		t.Fatal(err)
	}
	cols := classifier.Columns{Target: "y", TargetType: "BIGINT", Features: []classifier.Feature{{Name: "x", Kind: classifier.FeatureNumeric}}}
	data, err := classifier.EncodeStored(m, state, 2, cols)
	if err != nil {
		t.Fatal(err)
	}
	s, err := classifier.DecodeStored(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Epoch != 2 || s.Columns.Target != "y" || s.Columns.TargetType != "BIGINT" || !slices.Equal(s.Model.Classes, m.Classes) {
		t.Errorf("decoded epoch %d, columns %+v, classes %v", s.Epoch, s.Columns, s.Model.Classes)
	}
	got, err := classifier.DecodeState(data)
	if err != nil || got == nil || got.Epoch != state.Epoch || !slices.Equal(got.Weights, state.Weights) {
		t.Errorf("decoded state %+v, %v; want the stored one", got, err)
	}
	if data, err = classifier.EncodeStored(m, nil, 2, cols); err != nil {
		t.Fatal(err)
	}
	if got, err := classifier.DecodeState(data); err != nil || got != nil {
		t.Errorf("a version stored without state decodes to %v, %v; want none", got, err)
	}
	if _, err := classifier.DecodeStored([]byte("{")); err == nil {
		t.Error("a broken artifact decoded")
	}
}
