package classifier_test

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

// withNoise adds a column of pure noise, z, to t.
func withNoise(t *classifier.Table, seed uint64) *classifier.Table {
	n, _ := t.Rows()
	rng := rand.New(rand.NewPCG(seed, 9))
	z := make([]float64, n)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	out := *t
	out.Numeric = append(append([]classifier.NumericColumn{}, t.Numeric...), classifier.NumericColumn{Name: "z", Values: z})
	return &out
}

// TestPermutationImportanceClassifier: on rings, whose label depends on
// x, y and kind, each of them drops the accuracy well above the noise
// column z, whose importance is near 0; the figures repeat with the seed.
func TestPermutationImportanceClassifier(t *testing.T) {
	train, ty := rings(1, 1200)
	test, ey := rings(2, 600)
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.Patience = 60, 10
	m, err := classifier.Fit(context.Background(), opts, withNoise(train, 1), ty, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, imp, err := classifier.PermutationImportance(context.Background(), m, withNoise(test, 2), ey, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("accuracy %.4f, importance %+v", base, imp)
	if len(imp) != 4 || imp[len(imp)-1].Feature != "z" && imp[len(imp)-2].Feature != "z" {
		t.Fatalf("importance %+v: want 4 features, z among the last two", imp)
	}
	by := map[string]classifier.Importance{}
	for i, x := range imp {
		by[x.Feature] = x
		if i > 0 && x.Mean > imp[i-1].Mean {
			t.Errorf("not sorted by importance: %+v", imp)
		}
	}
	for _, f := range []string{"x", "y", "kind"} {
		if by[f].Mean < 0.1 || by[f].Mean < 5*math.Abs(by["z"].Mean)+0.05 {
			t.Errorf("%s: importance %.4f, noise z %.4f; want at least 0.1 and clearly above", f, by[f].Mean, by["z"].Mean)
		}
	}
	if math.Abs(by["z"].Mean) > 0.02 {
		t.Errorf("noise z: importance %.4f, want within 0.02 of 0", by["z"].Mean)
	}
	_, again, _ := classifier.PermutationImportance(context.Background(), m, withNoise(test, 2), ey, 5, 1)
	for i := range imp {
		if again[i] != imp[i] {
			t.Errorf("a second run with seed 1 gives %+v, the first %+v", again[i], imp[i])
		}
	}
}

// TestPermutationImportanceRegressor: a regressor of y = 3x + 1 measures
// the increase in RMSE: x's is about the RMSE of predicting a shuffled x,
// sqrt(2)·3·sd(x), the noise column's 0.
func TestPermutationImportanceRegressor(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	n := 800
	x, z, y := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], z[i] = rng.NormFloat64(), rng.NormFloat64()
		y[i] = 3*x[i] + 1
	}
	tab := &classifier.Table{Numeric: []classifier.NumericColumn{{Name: "x", Values: x}, {Name: "z", Values: z}}}
	opts := classifier.DefaultOptions()
	opts.Model, opts.Epochs, opts.LR = classifier.ModelLinear, 200, 0.05
	m, err := classifier.Fit(context.Background(), opts, tab, classifier.Target{Values: y}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, imp, err := classifier.PermutationImportance(context.Background(), m, tab, classifier.Target{Values: y}, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rmse %.4f, importance %+v", base, imp)
	if m.ImportanceMetric() != "rmse" || imp[0].Feature != "x" || math.Abs(imp[0].Mean-3*math.Sqrt2) > 0.5 || math.Abs(imp[1].Mean) > 0.05 {
		t.Errorf("importance %+v (%s), want x about %.2f, z about 0", imp, m.ImportanceMetric(), 3*math.Sqrt2)
	}
	if _, _, err := classifier.PermutationImportance(context.Background(), m, tab, classifier.Target{Values: y}, 0, 7); err == nil {
		t.Error("repeats 0 accepted")
	}
}

// TestStateJSONWithoutValidation: a training state without validation
// rows (best loss NaN) encodes, and decodes to NaN; a finite one to
// itself.
func TestStateJSONWithoutValidation(t *testing.T) {
	for _, loss := range []float64{math.NaN(), 0.25} {
		data, err := json.Marshal(&classifier.State{Epoch: 3, Weights: []float64{1, 2}, BestLoss: loss, Since: 1})
		if err != nil {
			t.Fatalf("best loss %g: %v", loss, err)
		}
		var s classifier.State
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		if s.Epoch != 3 || len(s.Weights) != 2 || s.Since != 1 || !(s.BestLoss == loss || math.IsNaN(loss) && math.IsNaN(s.BestLoss)) {
			t.Errorf("best loss %g: %s decodes to %+v", loss, data, s)
		}
	}
}

// TestPermutationImportanceImage: an image is one feature, named after
// its column, its pixels shuffled across rows together.
func TestPermutationImportanceImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := 400
	im := &classifier.ImageColumn{Name: "img", Channels: 1, Height: 4, Width: 4}
	labels := make([]string, n)
	for i := range n {
		px := make([]float64, 16)
		for k := range px {
			px[k] = 40 * rng.Float64()
		}
		labels[i] = "dark"
		if i%2 == 0 {
			px[5], labels[i] = 255, "bright"
		}
		im.Pixels = append(im.Pixels, px)
	}
	tab := &classifier.Table{Image: im}
	opts := classifier.DefaultOptions()
	opts.Model, opts.Epochs, opts.LR = classifier.ModelLinear, 30, 0.05
	m, err := classifier.Fit(context.Background(), opts, tab, classifier.Target{Labels: labels}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, imp, err := classifier.PermutationImportance(context.Background(), m, tab, classifier.Target{Labels: labels}, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(imp) != 1 || imp[0].Feature != "img" || base < 0.99 || imp[0].Mean < 0.3 {
		t.Errorf("accuracy %.4f, importance %+v; want one feature img losing at least 0.3", base, imp)
	}
}
