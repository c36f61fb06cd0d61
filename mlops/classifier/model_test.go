package classifier_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

// rings is a table whose label is whether a point lies inside a circle,
// flipped for category "b": no linear model separates it.
func rings(seed uint64, n int) (*classifier.Table, classifier.Target) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x, y := make([]float64, n), make([]float64, n)
	cat := make([]string, n)
	labels := make([]string, n)
	for i := range n {
		x[i], y[i] = 10+4*rng.NormFloat64(), -3+2*rng.NormFloat64()
		cat[i] = []string{"a", "b", "c"}[rng.IntN(3)]
		inside := math.Hypot((x[i]-10)/4, (y[i]+3)/2) < 1.1
		if cat[i] == "b" {
			inside = !inside
		}
		labels[i] = fmt.Sprint(inside)
	}
	return &classifier.Table{
		Numeric:     []classifier.NumericColumn{{Name: "x", Values: x}, {Name: "y", Values: y}},
		Categorical: []classifier.CategoricalColumn{{Name: "kind", Values: cat}},
	}, classifier.Target{Labels: labels}
}

// accuracy is the share of rows whose most probable class is their label.
func accuracy(t *testing.T, m *classifier.Model, tab *classifier.Table, target classifier.Target) float64 {
	t.Helper()
	p, err := m.Predict(tab)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for r, row := range p {
		best := 0
		for j := range row {
			if row[j] > row[best] {
				best = j
			}
		}
		if m.Classes[best] == target.Labels[r] {
			right++
		}
	}
	return float64(right) / float64(len(p))
}

func TestDefaultBeatsLogisticRegression(t *testing.T) {
	train, ty := rings(1, 1200)
	test, ey := rings(2, 600)
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.Patience = 60, 10
	fit := func(kind string) float64 {
		opts.Model = kind
		m, err := classifier.Fit(context.Background(), opts, train, ty, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return accuracy(t, m, test, ey)
	}
	linear, mlp := fit(classifier.ModelLinear), fit("")
	t.Logf("test accuracy: logistic regression %.3f, default (mlp) %.3f", linear, mlp)
	if mlp < linear || mlp < 0.9 {
		t.Errorf("default model's test accuracy %.3f, logistic regression's %.3f: want the default at least 0.9 and no worse", mlp, linear)
	}
}

func TestModelRoundTrip(t *testing.T) {
	train, ty := rings(3, 200)
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.Dropout = 3, 0.2
	m, err := classifier.Fit(context.Background(), opts, train, ty, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := classifier.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.Predict(train)
	got, err := back.Predict(train)
	if err != nil {
		t.Fatal(err)
	}
	for r := range want {
		var sum float64
		for j := range want[r] {
			if got[r][j] != want[r][j] {
				t.Fatalf("row %d: decoded model predicts %v, the model %v", r, got[r], want[r])
			}
			sum += got[r][j]
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: probabilities %v sum to %v", r, got[r], sum)
		}
	}
	back.Weights = back.Weights[1:]
	buf.Reset()
	back.Encode(&buf)
	if _, err := classifier.Decode(&buf); err == nil {
		t.Error("decoded a model with a weight missing")
	}
}

func TestPredictNeedsTrainingColumns(t *testing.T) {
	train, ty := rings(4, 100)
	opts := classifier.DefaultOptions()
	opts.Epochs = 1
	m, err := classifier.Fit(context.Background(), opts, train, ty, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	train.Categorical[0].Name = "other"
	if _, err := m.Predict(train); err == nil {
		t.Error("predicted without the column kind")
	}
}

func TestRegressorPredictsInTargetUnits(t *testing.T) {
	// target = 1000 + 50·x: standardised for training, unscaled on output.
	n := 300
	rng := rand.New(rand.NewPCG(5, 5))
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = rng.NormFloat64()
		y[i] = 1000 + 50*x[i]
	}
	tab := &classifier.Table{Numeric: []classifier.NumericColumn{{Name: "x", Values: x}}}
	opts := classifier.DefaultOptions()
	opts.Model, opts.Epochs, opts.LR, opts.Patience = classifier.ModelLinear, 40, 0.05, 0
	var last classifier.Epoch
	m, err := classifier.Fit(context.Background(), opts, tab, classifier.Target{Values: y}, nil, func(e classifier.Epoch) error { last = e; return nil })
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(&classifier.Table{Numeric: []classifier.NumericColumn{{Name: "x", Values: []float64{0, 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p[0][0]-1000) > 0.5 || math.Abs(p[1][0]-1100) > 0.5 {
		t.Errorf("predictions %v, want about 1000 and 1100", p)
	}
	if !(last.ValRMSE < 0.5) {
		t.Errorf("last epoch's validation RMSE %v in target units, want < 0.5", last.ValRMSE)
	}
}

func TestFitChecksTarget(t *testing.T) {
	tab, ty := rings(6, 20)
	tests := map[string]classifier.Target{
		"none":        {},
		"both":        {Labels: ty.Labels, Values: make([]float64, 20)},
		"short":       {Labels: ty.Labels[:19]},
		"short value": {Values: make([]float64, 3)},
	}
	for name, target := range tests {
		if _, err := classifier.Fit(context.Background(), classifier.DefaultOptions(), tab, target, nil, nil); err == nil {
			t.Errorf("%s: fitted", name)
		}
	}
}
