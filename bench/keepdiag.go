package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// `bench keepdiag` shows, on the validation rows of each full panel, how
// the default keeps its network: for each seed the epoch 'best' keeps,
// its validation MSE against epoch 0's (the anchor alone), the
// Diebold-Mariano t of the per-row loss differential that 'one_se'
// tests, and the epoch 'one_se' keeps. It reads no test row.

// keepDiag is one seed's figures on one panel.
type keepDiag struct {
	kept, keptOneSE int
	mse0, mse, t    float64
}

func runKeepDiag(ctx context.Context, o options) error {
	sets, err := panelSets(o)
	if err != nil {
		return err
	}
	for _, ds := range sets {
		cfg := gat.DefaultConfig()
		cfg.Season = ds.season
		_, val, _, err := cfg.Samples(ds.m)
		if err != nil {
			return err
		}
		u, err := gat.Untrained(cfg, ds.m)
		if err != nil {
			return err
		}
		f0, err := u.Forecaster()
		if err != nil {
			return err
		}
		diags := make([]keepDiag, o.Seeds)
		err = parallelRuns(ctx, o.Seeds, func(ctx context.Context, seed int) error {
			c := cfg
			c.Seed = uint64(seed)
			diags[seed], err = keepDiagSeed(ctx, c, ds.m, val, f0)
			return err
		})
		if err != nil {
			return fmt.Errorf("keepdiag on %s: %w", ds.name, err)
		}
		printKeepDiag(o.Out, ds, len(val), u.Anchor.String(), diags)
	}
	return nil
}

// keepDiagSeed trains cfg under 'best' and 'one_se' and scores the first
// against f0, epoch 0's forecaster, on the validation rows val.
func keepDiagSeed(ctx context.Context, cfg gat.Config, m series.Matrix, val []int, f0 baseline.Forecaster) (keepDiag, error) {
	model, err := gat.Train(ctx, cfg, m, nil)
	if err != nil {
		return keepDiag{}, err
	}
	f, err := model.Forecaster()
	if err != nil {
		return keepDiag{}, err
	}
	cfg.KeepNetwork = gat.KeepOneSE
	one, err := gat.Train(ctx, cfg, m, nil)
	if err != nil {
		return keepDiag{}, err
	}
	d := rowDifferential(f, f0, m, val)
	return keepDiag{kept: model.Kept, keptOneSE: one.Kept, mse0: oneStep(f0, m, val), mse: oneStep(f, m, val), t: tStat(d)}, nil
}

// rowDifferential is f's one-step squared errors less f0's, summed over
// the entities of each row of rows.
func rowDifferential(f, f0 baseline.Forecaster, m series.Matrix, rows []int) []float64 {
	a, b := [][]float64{make([]float64, m.N)}, [][]float64{make([]float64, m.N)}
	d := make([]float64, len(rows))
	for k, t := range rows {
		f.Forecast(m, t, a)
		f0.Forecast(m, t, b)
		for i := range m.N {
			y := m.At(t, i)
			d[k] += (a[0][i]-y)*(a[0][i]-y) - (b[0][i]-y)*(b[0][i]-y)
		}
	}
	return d
}

// tStat is the mean of d over its standard error (0 when d is constant).
func tStat(d []float64) float64 {
	var mean, v float64
	for _, x := range d {
		mean += x
	}
	mean /= float64(len(d))
	for _, x := range d {
		v += (x - mean) * (x - mean)
	}
	se := math.Sqrt(v / float64(len(d)-1) / float64(len(d)))
	if se == 0 {
		return 0
	}
	return mean / se
}

func printKeepDiag(out io.Writer, ds fcData, rows int, anchor string, diags []keepDiag) {
	fmt.Fprintf(out, "\n### %s: %d validation rows of %d entities, anchor %s\n\n", ds.name, rows, ds.m.N, anchor)
	fmt.Fprintln(out, "| seed | 'best' keeps | validation MSE, epoch 0 | kept epoch | ÷ epoch 0 | DM t | 'one_se' keeps |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|")
	for s, d := range diags {
		fmt.Fprintf(out, "| %d | %d | %.5f | %.5f | %.4f | %.2f | %d |\n", s, d.kept, d.mse0, d.mse, d.mse/d.mse0, d.t, d.keptOneSE)
	}
}
