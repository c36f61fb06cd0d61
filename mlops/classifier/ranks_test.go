package classifier_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/parallel"
)

// acrossProcesses trains as ranks processes of workers goroutines each
// (parallel.Ranks over LocalComms), and returns process 0's epochs and
// every process's weights.
func acrossProcesses(t *testing.T, net classifier.Network, cfg classifier.Config, train, val classifier.Data, ranks, workers int) ([]classifier.Epoch, [][]float64) {
	t.Helper()
	cfg.Workers = ranks * workers
	comms := parallel.LocalComms(ranks)
	var es []classifier.Epoch
	weights := make([][]float64, ranks)
	err := parallel.Run(context.Background(), ranks, func(ctx context.Context, p int) error {
		var report func(classifier.Epoch) error
		if p == 0 {
			report = func(e classifier.Epoch) error { es = append(es, e); return nil }
		}
		w, err := classifier.TrainOn(ctx, parallel.NewRanks(comms[p], workers), net, cfg, train, val, nil, report)
		weights[p] = w
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return es, weights
}

// TestTrainOnRanksFollowsWorkers checks that training across processes
// (2 x 1 and 2 x 2 workers) reports the curve of as many workers in one
// process to 1e-9 relative, and that every process ends with the same
// weights, those of the one process to 1e-7.
func TestTrainOnRanksFollowsWorkers(t *testing.T) {
	tests := []struct {
		name string
		net  classifier.Network
		data classifier.Data
	}{
		{"mlp", classifier.Network{Arch: classifier.MLP([]int{16}, 0.2, 3), H: 1, W: 1, C: 5}, blobs(2, 150, 5, 3, 2)},
		{"cnn", classifier.Network{Arch: classifier.DefaultCNN(3), H: 6, W: 6, C: 1}, blobs(4, 48, 36, 3, 2)},
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s 2x%d", tt.name, workers), func(t *testing.T) {
				cfg := classifier.DefaultConfig()
				cfg.Epochs, cfg.BatchSize, cfg.LR, cfg.Patience = 3, 16, 0.01, 0
				val := blobs(3, 30, tt.net.H*tt.net.W*tt.net.C, 3, 2)
				cfg.Workers = 2 * workers
				local, w := curve(t, tt.net, cfg, tt.data, val)
				across, ws := acrossProcesses(t, tt.net, cfg, tt.data, val, 2, workers)
				if len(across) != len(local) || len(local) != 3 {
					t.Fatalf("%d epochs across processes, %d in one, want 3", len(across), len(local))
				}
				for i := range local {
					if !relClose(local[i].TrainLoss, across[i].TrainLoss, 1e-9) || !relClose(local[i].ValLoss, across[i].ValLoss, 1e-9) ||
						local[i].ValAccuracy != across[i].ValAccuracy {
						t.Errorf("2 x %d workers, epoch %d: %+v across processes, %+v in one", workers, i+1, across[i], local[i])
					}
				}
				if !slices.Equal(ws[0], ws[1]) {
					t.Errorf("2 x %d workers: the processes end with different weights", workers)
				}
				for i := range w {
					if !relClose(w[i], ws[0][i], 1e-7) && math.Abs(w[i]-ws[0][i]) > 1e-12 {
						t.Fatalf("2 x %d workers: weight %d = %v across processes, %v in one", workers, i, ws[0][i], w[i])
					}
				}
			})
		}
	}
}

// TestTrainOnChecksWorkers checks that a collective of another size than
// the settings' workers is refused.
func TestTrainOnChecksWorkers(t *testing.T) {
	cfg := classifier.DefaultConfig()
	cfg.Workers = 3
	d := blobs(1, 20, 2, 2, 1)
	_, err := classifier.TrainOn(context.Background(), parallel.NewLocal(2), classifier.Network{Arch: classifier.Linear(2), H: 1, W: 1, C: 2}, cfg, d, d, nil, nil)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("workers 3: the collective joins 2")) {
		t.Errorf("error %v, want workers 3 refused for a collective of 2", err)
	}
}

// TestDataRoundTrip checks that ReadData reads what WriteData wrote to
// the bit, for a classifier's and a regressor's data, and refuses what it
// did not write.
func TestDataRoundTrip(t *testing.T) {
	cls := blobs(5, 7, 3, 2, 1)
	cls.X[4] = math.Copysign(0, -1)
	reg := classifier.Data{Rows: 2, X: []float64{1.5, math.Inf(-1)}, Targets: []float64{-0.25, 1e-300}}
	for _, d := range []classifier.Data{cls, reg, {}} {
		var buf bytes.Buffer
		if err := classifier.WriteData(&buf, d, len(d.X)/max(d.Rows, 1)); err != nil {
			t.Fatal(err)
		}
		got, err := classifier.ReadData(&buf)
		if err != nil {
			t.Fatal(err)
		}
		bits := func(v []float64) []uint64 {
			out := make([]uint64, len(v))
			for i, x := range v {
				out[i] = math.Float64bits(x)
			}
			return out
		}
		if got.Rows != d.Rows || !slices.Equal(bits(got.X), bits(d.X)) || !slices.Equal(got.Labels, d.Labels) || !slices.Equal(bits(got.Targets), bits(d.Targets)) {
			t.Errorf("read %+v, wrote %+v", got, d)
		}
	}
	if _, err := classifier.ReadData(bytes.NewReader([]byte("not data at all"))); err == nil {
		t.Error("ReadData read what WriteData did not write")
	}
}
