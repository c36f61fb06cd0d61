package classifier_test

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

// The penguins comparison is opt-in: -penguins names vega-datasets'
// data/penguins.json (npm install vega-datasets outside the repository).
var penguinsPath = flag.String("penguins", "", "run TestPenguins on this penguins.json")

// penguins reads the rows as a table (null numbers NaN, null categories
// "") and the species.
func penguins(t *testing.T) (*classifier.Table, []string) {
	b, err := os.ReadFile(*penguinsPath)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	tab := &classifier.Table{}
	for _, name := range []string{"Beak Length (mm)", "Beak Depth (mm)", "Flipper Length (mm)", "Body Mass (g)"} {
		c := classifier.NumericColumn{Name: name}
		for _, r := range rows {
			v, ok := r[name].(float64)
			if !ok {
				v = math.NaN()
			}
			c.Values = append(c.Values, v)
		}
		tab.Numeric = append(tab.Numeric, c)
	}
	for _, name := range []string{"Island", "Sex"} {
		c := classifier.CategoricalColumn{Name: name}
		for _, r := range rows {
			s, _ := r[name].(string)
			c.Values = append(c.Values, s)
		}
		tab.Categorical = append(tab.Categorical, c)
	}
	var species []string
	for _, r := range rows {
		species = append(species, r["Species"].(string))
	}
	return tab, species
}

// subset is rows of tab and labels.
func subset(tab *classifier.Table, labels []string, rows []int) (*classifier.Table, classifier.Target) {
	out := &classifier.Table{}
	for _, c := range tab.Numeric {
		n := classifier.NumericColumn{Name: c.Name}
		for _, r := range rows {
			n.Values = append(n.Values, c.Values[r])
		}
		out.Numeric = append(out.Numeric, n)
	}
	for _, c := range tab.Categorical {
		n := classifier.CategoricalColumn{Name: c.Name}
		for _, r := range rows {
			n.Values = append(n.Values, c.Values[r])
		}
		out.Categorical = append(out.Categorical, n)
	}
	var target classifier.Target
	for _, r := range rows {
		target.Labels = append(target.Labels, labels[r])
	}
	return out, target
}

func TestPenguins(t *testing.T) {
	if *penguinsPath == "" {
		t.Skip("opt-in: -penguins path/to/penguins.json")
	}
	tab, species := penguins(t)
	var linear, def []float64
	for seed := uint64(1); seed <= 5; seed++ {
		perm := rand.New(rand.NewPCG(seed, 7)).Perm(len(species))
		cut := len(perm) * 7 / 10
		train, ty := subset(tab, species, perm[:cut])
		test, ey := subset(tab, species, perm[cut:])
		for _, kind := range []string{classifier.ModelLinear, ""} {
			opts := classifier.DefaultOptions()
			opts.Model, opts.Seed, opts.Epochs, opts.Patience = kind, seed, 500, 25
			m, err := classifier.Fit(context.Background(), opts, train, ty, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			acc := accuracy(t, m, test, ey)
			if kind == "" {
				def = append(def, acc)
			} else {
				linear = append(linear, acc)
			}
		}
		t.Logf("seed %d: test accuracy logistic regression %.4f, default (mlp) %.4f", seed, linear[len(linear)-1], def[len(def)-1])
	}
	t.Logf("median over 5 splits: logistic regression %.4f, default %.4f", median(linear), median(def))
	if median(def) < median(linear) {
		t.Errorf("default's median test accuracy %.4f below logistic regression's %.4f", median(def), median(linear))
	}
}
