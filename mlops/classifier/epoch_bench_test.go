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

// BenchmarkFitSourceEpoch times one epoch of the default CNN (1 worker,
// Adam, batch 64, no validation rows) over the first 1,000 MNIST
// training images held as a table in memory (encoded once, before
// training) and read through a Source (encoded a batch at a time as it
// is gathered, as a spilled source is), alternately in each iteration,
// and reports the medians' ratio, source over memory: the cost of
// encoding batch by batch, without the file reads a spilled source adds.
//
//	go test ./mlops/classifier/ -run '^$' -bench BenchmarkFitSourceEpoch -benchtime 3x -v
func BenchmarkFitSourceEpoch(b *testing.B) {
	train, _ := loadMNIST(b)
	tab, labels := table(train, 1000)
	mem, err := classifier.InMemory(tab)
	if err != nil {
		b.Fatal(err)
	}
	largest := 0
	src := chunked{src: mem, largest: &largest}
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.ValFraction = 1, 0
	secs := map[string][]float64{}
	for range b.N {
		for _, way := range []string{"memory", "source"} {
			var took float64
			report := func(e classifier.Epoch) error { took = e.Elapsed.Seconds(); return nil }
			if way == "memory" {
				_, err = classifier.Fit(context.Background(), opts, tab, classifier.Target{Labels: labels}, nil, report)
			} else {
				_, err = classifier.FitSource(context.Background(), opts, src, classifier.Target{Labels: labels}, nil, report)
			}
			if err != nil {
				b.Fatal(err)
			}
			secs[way] = append(secs[way], took)
			b.Logf("%s: epoch %.2f s, load %s", way, took, loadavg())
		}
	}
	b.ReportMetric(median(secs["source"])/median(secs["memory"]), "time-source/memory")
}
