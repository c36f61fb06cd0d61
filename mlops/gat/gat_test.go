package gat_test

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
)

// unemployment reads the example data set the repository ships (examples/data)
// as a 122 x 14 matrix, rescaled
// with signed_log_zscore and global statistics of the first 70 % of rows.
func unemployment(t testing.TB) series.Matrix {
	f, err := os.Open(filepath.Join("..", "..", "examples", "data", "unemployment-across-industries.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	entities, times := map[string]int{}, map[int]int{}
	var names []string
	for _, r := range recs[1:] {
		if _, ok := entities[r[0]]; !ok {
			entities[r[0]] = 0
			names = append(names, r[0])
		}
		y, _ := strconv.Atoi(r[1])
		mo, _ := strconv.Atoi(r[2])
		times[y*12+mo] = 0
	}
	sort.Strings(names)
	for i, n := range names {
		entities[n] = i
	}
	keys := make([]int, 0, len(times))
	for k := range times {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for i, k := range keys {
		times[k] = i
	}
	m := series.Matrix{T: len(keys), N: len(names), Values: make([]float64, len(keys)*len(names))}
	for _, r := range recs[1:] {
		y, _ := strconv.Atoi(r[1])
		mo, _ := strconv.Atoi(r[2])
		v, _ := strconv.ParseFloat(r[3], 64)
		m.Values[times[y*12+mo]*m.N+entities[r[0]]] = v
	}
	train := int(math.Floor(0.7 * float64(m.T)))
	var mom scale.Moments
	for i := range train * m.N {
		mom.Add(scale.SignedLog(m.Values[i]))
	}
	for i, v := range m.Values {
		m.Values[i] = (scale.SignedLog(v) - mom.Mean) / mom.Std()
	}
	return m
}

// TestUnemploymentAccuracy trains the default configuration, reports the
// table of train, validation and test MSE for the GAT and the baselines,
// and checks that the stored model is the one scored.
func TestUnemploymentAccuracy(t *testing.T) {
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	var epochs []gat.Epoch
	model, err := gat.Train(context.Background(), cfg, m, func(e gat.Epoch) error { epochs = append(epochs, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	metrics, skipped, err := gat.Evaluate(model, m, nil)
	if err != nil || len(skipped) > 0 {
		t.Fatal(err, skipped)
	}
	t.Logf("%-15s %10s %10s %10s", "method", "train_mse", "val_mse", "test_mse")
	for _, r := range metrics {
		t.Logf("%-15s %10.4f %10.4f %10.4f", r.Method, r.TrainMSE, *r.ValMSE, r.TestMSE)
	}
	if len(metrics) != 10 || metrics[0].Method != "gat" {
		t.Fatalf("methods %v, want gat and the 9 baselines", metrics)
	}
	_, val, test, _ := cfg.Samples(m)
	mse, err := model.MSE(m, test)
	if err != nil || math.Abs(mse-metrics[0].TestMSE) > 1e-12*mse {
		t.Errorf("Evaluate's gat test MSE %v, the model's %v (%v)", metrics[0].TestMSE, mse, err)
	}
	// The kept weights are those of the epoch with the lowest validation MSE.
	valMSE, err := model.MSE(m, val)
	if err != nil || math.Abs(valMSE-*metrics[0].ValMSE) > 1e-12*valMSE {
		t.Errorf("Evaluate's gat validation MSE %v, the model's %v (%v)", *metrics[0].ValMSE, valMSE, err)
	}
	for _, e := range epochs {
		if e.ValMSE < valMSE-1e-12 {
			t.Errorf("epoch %d has validation MSE %v, below the kept epoch %d's %v", e.Epoch, e.ValMSE, model.Kept, valMSE)
		}
	}
	// Epoch 0 is the best anchor on validation, and no epoch is kept that
	// validates worse, so the model validates at least as well as every
	// anchor candidate the ladder also scores (the last_value candidate has
	// the highway, so it is ar_diff, not the ladder's last_value).
	for _, r := range metrics[1:] {
		if r.Method != "last_value" && slices.Contains(gat.AnchorKinds(), r.Method) && *metrics[0].ValMSE > *r.ValMSE+1e-12 {
			t.Errorf("gat validation MSE %v above %s's %v", *metrics[0].ValMSE, r.Method, *r.ValMSE)
		}
	}
	if model.Kept > 0 && epochs[model.Kept-1].ValMSE != valMSE {
		t.Errorf("kept epoch %d's reported validation MSE %v, the model's %v", model.Kept, epochs[model.Kept-1].ValMSE, valMSE)
	}
}

// curve trains cfg on m and returns every epoch's report and the model.
func curve(t *testing.T, cfg gat.Config, m series.Matrix) ([]gat.Epoch, *gat.Model) {
	var epochs []gat.Epoch
	model, err := gat.Train(context.Background(), cfg, m, func(e gat.Epoch) error { epochs = append(epochs, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return epochs, model
}

// TestWorkersAgree checks that two workers follow one worker's loss curve
// (same global batch) and that a run is reproducible bit for bit.
func TestWorkersAgree(t *testing.T) {
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed = 30, 7
	one, oneModel := curve(t, cfg, m)
	again, againModel := curve(t, cfg, m)
	cfg.Workers = 2
	two, _ := curve(t, cfg, m)
	for i := range one {
		if one[i].TrainMSE != again[i].TrainMSE || one[i].TestMSE != again[i].TestMSE {
			t.Fatalf("epoch %d differs between two runs with the same seed: %v vs %v", i+1, one[i], again[i])
		}
		for _, pair := range [][2]float64{{one[i].TrainMSE, two[i].TrainMSE}, {one[i].TestMSE, two[i].TestMSE}} {
			if math.Abs(pair[0]-pair[1]) > 1e-9*math.Abs(pair[0]) {
				t.Errorf("epoch %d: 1 worker %v, 2 workers %v", i+1, pair[0], pair[1])
			}
		}
	}
	for i := range oneModel.Weights {
		for j := range oneModel.Weights[i] {
			if oneModel.Weights[i][j] != againModel.Weights[i][j] {
				t.Fatalf("weight %d/%d differs between runs with the same seed", i, j)
			}
		}
	}
}

// TestForecastRollsForward checks that a forecast's first step is the
// model's prediction of the row after the data, and later steps differ.
func TestForecastRollsForward(t *testing.T) {
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Epochs = 3
	_, model := curve(t, cfg, m)
	steps, err := model.Forecast(m, 3)
	if err != nil {
		t.Fatal(err)
	}
	first := make([]float64, m.N)
	if err := model.Predict(m, m.T, first); err != nil {
		t.Fatal(err)
	}
	for i := range first {
		if steps[0][i] != first[i] {
			t.Fatalf("step 1 entity %d = %v, prediction %v", i, steps[0][i], first[i])
		}
	}
	if len(steps) != 3 || steps[1][0] == steps[0][0] {
		t.Errorf("steps %v", steps)
	}
}

// TestPredictRowsAgrees checks that predicting many rows at once gives
// Predict's rows and, over the test samples, the model's MSE.
func TestPredictRowsAgrees(t *testing.T) {
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Epochs = 2
	_, model := curve(t, cfg, m)
	_, test, err := series.Split(m, cfg.Span(), cfg.TrainFraction)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := model.PredictRows(m, test)
	if err != nil {
		t.Fatal(err)
	}
	one := make([]float64, m.N)
	if err := model.Predict(m, test[3], one); err != nil {
		t.Fatal(err)
	}
	for i := range one {
		if rows[3][i] != one[i] {
			t.Fatalf("row %d entity %d: PredictRows %v, Predict %v", test[3], i, rows[3][i], one[i])
		}
	}
	sum := 0.0
	for k, r := range test {
		for i := range m.N {
			d := rows[k][i] - m.At(r, i)
			sum += d * d
		}
	}
	want, err := model.MSE(m, test)
	if err != nil {
		t.Fatal(err)
	}
	if got := sum / float64(len(test)*m.N); math.Abs(got-want) > 1e-12 {
		t.Errorf("MSE from PredictRows %v, model.MSE %v", got, want)
	}
	if _, err := model.PredictRows(m, []int{0}); err == nil {
		t.Error("PredictRows of row 0 (no window before it) succeeded")
	}
}
