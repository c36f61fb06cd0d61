package classifier_test

import (
	"context"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

// cnnBenchImages is the slice of MNIST's training images an epoch of
// BenchmarkCNNEpoch covers.
const cnnBenchImages = 2000

// BenchmarkCNNEpoch times one training epoch of the default CNN (Adam,
// batch 64, no validation rows) over the first 2,000 MNIST training
// images, with 1 and with 2 workers alternately in each iteration, and
// reports the medians over iterations: images/s per core for each, the
// 2-worker epoch's time over the 1-worker epoch's, and the fraction of
// gonum's serial Dgemm rate that each epoch's matrix FLOPs (mnistFLOPs
// per image) reach per core. Dgemm is timed again before every epoch, on
// the second convolution's product for a batch of 64, so that each epoch
// is compared with the machine as it was then.
//
//	go test ./mlops/classifier/ -run '^$' -bench BenchmarkCNNEpoch -benchtime 3x -v
func BenchmarkCNNEpoch(b *testing.B) {
	train, _ := loadMNIST(b)
	tab, labels := table(train, cnnBenchImages)
	flops := mnistFLOPs()
	secs, fractions := map[int][]float64{}, map[int][]float64{}
	b.Logf("load average before: %s", loadavg())
	b.ResetTimer()
	for range b.N {
		for _, workers := range []int{1, 2} {
			b.StopTimer()
			gemm := gemmRate(64)
			b.StartTimer()
			opts := classifier.DefaultOptions()
			opts.Epochs, opts.Workers, opts.ValFraction = 1, workers, 0
			var took float64
			_, err := classifier.Fit(context.Background(), opts, tab, classifier.Target{Labels: labels}, nil,
				func(e classifier.Epoch) error { took = e.Elapsed.Seconds(); return nil })
			if err != nil {
				b.Fatal(err)
			}
			perCore := cnnBenchImages / took / float64(workers)
			secs[workers] = append(secs[workers], took)
			fractions[workers] = append(fractions[workers], perCore*flops/gemm)
			b.Logf("%d worker(s): epoch %.2f s, %.0f images/s per core, Dgemm %.2f GFLOP/s, fraction %.2f, load %s",
				workers, took, perCore, gemm/1e9, perCore*flops/gemm, loadavg())
		}
	}
	b.StopTimer()
	for _, w := range []int{1, 2} {
		b.ReportMetric(cnnBenchImages/median(secs[w])/float64(w), "images/s/core-"+string(rune('0'+w))+"w")
		b.ReportMetric(median(fractions[w]), "dgemm-fraction-"+string(rune('0'+w))+"w")
	}
	b.ReportMetric(median(secs[2])/median(secs[1]), "time-2w/1w")
	b.Logf("load average after: %s", loadavg())
}
