package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
)

// TestVariantConfigRefused checks that an unknown -anchor variant is
// refused with its value and the variants accepted.
func TestVariantConfigRefused(t *testing.T) {
	_, err := variantConfig("median")
	if err == nil || !strings.Contains(err.Error(), `-anchor "median"`) ||
		!strings.Contains(err.Error(), "auto, ets_arima_theta, auto+ets_arima_theta, ets_arima_theta_median, auto+ets_arima_theta_median") {
		t.Errorf("variantConfig(median): %v, want an error naming it and the variants", err)
	}
	if cfg, err := variantConfig("auto+ets_arima_theta_median"); err != nil || cfg.Anchor != gat.AnchorAuto || cfg.CombineFixed != gat.AnchorETSARIMAThetaMedian {
		t.Errorf("variantConfig(auto+ets_arima_theta_median) = %+v, %v", cfg, err)
	}
}

// TestCutToTraining checks the validation study's cut: on every R panel
// the cut panel holds the training rows only, and its test rows are the
// full panel's validation rows, so the study reads no test row.
func TestCutToTraining(t *testing.T) {
	panels, err := rPanels()
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range panels {
		cfg := gat.DefaultConfig()
		cfg.Season = ds.season
		_, val, test, err := cfg.Samples(ds.m)
		if err != nil {
			t.Fatal(err)
		}
		cut, fraction, err := cutToTraining(ds)
		if err != nil {
			t.Fatal(err)
		}
		cfg.TrainFraction = fraction
		_, _, cutTest, err := cfg.Samples(cut.m)
		if err != nil {
			t.Fatal(err)
		}
		if cut.m.T != test[0] || !slices.Equal(cutTest, val) {
			t.Errorf("%s: cut to %d rows (test from %d), test rows %v, want the validation rows %v", ds.name, cut.m.T, test[0], cutTest, val)
		}
	}
}
