package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// TestRPanels checks the panels built from R's datasets: their shapes,
// calendar seasons, and that each series is z-scored on its training
// rows.
func TestRPanels(t *testing.T) {
	panels, err := rPanels()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name           string
		rows, n, seasn int
	}{{"quarterly (R)", 84, 3, 4}, {"monthly (R)", 144, 3, 12}}
	if len(panels) != len(want) {
		t.Fatalf("%d panels, want %d", len(panels), len(want))
	}
	for i, w := range want {
		p := panels[i]
		if p.name != w.name || p.m.T != w.rows || p.m.N != w.n || p.season != w.seasn {
			t.Errorf("panel %d: %s %dx%d season %d, want %s %dx%d season %d", i, p.name, p.m.T, p.m.N, p.season, w.name, w.rows, w.n, w.seasn)
		}
		train := int(accTrainFraction * float64(p.m.T))
		for n := range p.m.N {
			var sum float64
			for r := range train {
				sum += p.m.At(r, n)
			}
			if math.Abs(sum/float64(train)) > 1e-9 {
				t.Errorf("%s series %d: training mean %v, want 0", p.name, n, sum/float64(train))
			}
		}
	}
}

// TestReferenceTheta runs reference.R through Rscript on the quarterly
// panel shifted to positive values (z-scores plus 10), so that both sides
// decompose multiplicatively, and checks that R's thetaf,
// fitted on the training rows with its parameters held fixed over the
// test rows, has the one-step test MSE of Mallard's theta to 1e-3
// relative: the same rows, split and method on both sides.
func TestReferenceTheta(t *testing.T) {
	panels, err := rPanels()
	if err != nil {
		t.Fatal(err)
	}
	q := panels[0]
	raw := series.Matrix{T: q.m.T, N: q.m.N, Values: make([]float64, len(q.m.Values))}
	for i, v := range q.m.Values {
		raw.Values[i] = 10 + v
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "reference.R")
	if err := os.WriteFile(script, referenceScript, 0o600); err != nil {
		t.Fatal(err)
	}
	rows := 59
	var train, test []int
	for r := 1; r < raw.T; r++ {
		if r < rows {
			train = append(train, r)
		} else {
			test = append(test, r)
		}
	}
	origins := spread(gat.Origins(test[0], raw.T, 4), 10)
	r, err := runR(context.Background(), dir, script, fcData{name: q.name, m: raw, season: 4}, rows, test, 4, origins)
	if err != nil {
		t.Fatal(err)
	}
	f, err := baseline.FitForecaster(baseline.KindTheta, raw, train, baseline.Options{Window: 1, Season: 4})
	if err != nil {
		t.Fatal(err)
	}
	got := oneStep(f, raw, test)
	rel := relMSE(raw, origins, 4, multiStep(f, raw, origins, 4))
	for _, s := range r {
		if s.method == "thetaf" && math.Abs(got-s.mse) > 1e-3*s.mse {
			t.Errorf("theta one-step MSE %v, R's thetaf %v", got, s.mse)
		}
		if s.method == "thetaf" && math.Abs(rel-s.rel) > 1e-3*s.rel {
			t.Errorf("theta's mean relative MSE over 4 steps %v, R's thetaf %v", rel, s.rel)
		}
		if !(s.rel > 0) {
			t.Errorf("R %s: relative MSE %v", s.method, s.rel)
		}
		if !(s.mse > 0) {
			t.Errorf("R %s: MSE %v", s.method, s.mse)
		}
	}
}
