package gat_test

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// rPanel reads panel ("quarterly" or "monthly") of R's datasets from the
// bench's testdata (UKgas, JohnsonJohnson, austres; co2, AirPassengers,
// nottem), each series z-scored on its first 70 % of rows.
func rPanel(b *testing.B, panel string) series.Matrix {
	f, err := os.Open(filepath.Join("..", "..", "bench", "testdata", "rdatasets.csv"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	cols := map[string][]float64{}
	for _, r := range recs[1:] {
		if r[0] != panel {
			continue
		}
		v, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			b.Fatal(err)
		}
		if cols[r[1]] == nil {
			names = append(names, r[1])
		}
		cols[r[1]] = append(cols[r[1]], v)
	}
	rows := len(cols[names[0]])
	m := series.Matrix{T: rows, N: len(names), Values: make([]float64, rows*len(names))}
	train := rows * 7 / 10
	for i, name := range names {
		var sum, sq float64
		for _, v := range cols[name][:train] {
			sum += v
		}
		mean := sum / float64(train)
		for _, v := range cols[name][:train] {
			sq += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(sq / float64(train))
		for t, v := range cols[name] {
			m.Values[t*m.N+i] = (v - mean) / sd
		}
	}
	return m
}

// BenchmarkAnchorOriginsOnValidation compares, on validation rows only
// (never the test rows), anchor "auto" choosing over the rolling origins
// with choosing on one span (anchor_origins 'validation', the rule past
// gat.CatalogueEntities entities), on the public panels: each chooses on
// the fitting rows alone, its last validation-span's worth of rows
// standing for validation, and the anchor it chooses, fitted on every
// fitting row, is scored on the validation rows at the configuration's
// horizon (1, the default). It prints each panel's choices and MSEs and
// their ratio.
func BenchmarkAnchorOriginsOnValidation(b *testing.B) {
	panels := validationPanels(b)
	for range b.N {
		for _, p := range panels {
			cfg, fit, val, core, inner := levelDown(b, p)
			var mse [2]float64
			var chosen [2]string
			for r, rule := range gat.AnchorOriginRules() {
				cfg.AnchorOrigins = rule
				a, err := gat.ChooseAnchor(cfg, p.m, core, inner)
				if err != nil {
					b.Fatal(err)
				}
				f := anchorOf(b, cfg, p.m, fit, a)
				mse[r], chosen[r] = baseline.MSE(f, p.m, val, nil), a.String()
			}
			b.Logf("%s (%d series, %d fitting rows, %d validation): rolling origins chose %s, validation MSE %.4f; one span chose %s, %.4f; ratio %.3f",
				p.name, p.m.N, len(fit), len(val), chosen[0], mse[0], chosen[1], mse[1], mse[1]/mse[0])
		}
	}
}

// anchorOf is the forecaster an untrained network anchored to a equals:
// the last value with the highway's autoregression fitted on fit, or a's
// fitted baseline.
func anchorOf(b *testing.B, cfg gat.Config, m series.Matrix, fit []int, a *gat.Anchor) baseline.Forecaster {
	if a.Kind == gat.AnchorLastValue {
		f, err := baseline.FitARDiff(m, cfg.Highway, fit)
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	f, err := a.Forecaster()
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// benchPanel is a public panel a validation study runs on, with its
// season.
type benchPanel struct {
	name   string
	m      series.Matrix
	season int
}

// validationPanels are the public panels the anchor and ladder studies
// run on.
func validationPanels(b *testing.B) []benchPanel {
	return []benchPanel{
		{"unemployment", unemployment(b), 12},
		{"quarterly (R)", rPanel(b, "quarterly"), 4},
		{"monthly (R)", rPanel(b, "monthly"), 12},
	}
}

// levelDown is a study one level down on p: the default configuration at
// p's season, its fitting and validation rows, and the fitting rows split
// as the anchor choice splits them (core, then the last validation span's
// worth, inner), so that only validation rows are scored.
func levelDown(b *testing.B, p benchPanel) (cfg gat.Config, fit, val, core, inner []int) {
	cfg = gat.DefaultConfig()
	cfg.Season = p.season
	fit, val, _, err := cfg.Samples(p.m)
	if err != nil {
		b.Fatal(err)
	}
	k := min(len(val), len(fit)/3)
	return cfg, fit, val, fit[:len(fit)-k], fit[len(fit)-k:]
}
