package classifier_test

import (
	"context"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/mnist"
)

// mnistSpeedRun times one epoch over the first -mnist.speed training
// images with 1 and with 2 workers, alternately, -mnist.repeats times
// each, and reports the medians. gonum's Dgemm rate is measured again
// before every timed epoch, so that each epoch is compared with the
// machine as it was then.
func mnistSpeedRun(t *testing.T, train mnist.Set) {
	tab, labels := table(train, *mnistSpeed)
	secs, fractions := map[int][]float64{}, map[int][]float64{}
	flops := mnistFLOPs()
	for rep := range *mnistRepeats {
		for _, workers := range []int{1, 2} {
			gemm := gemmRate(64)
			opts := classifier.DefaultOptions()
			opts.Epochs, opts.Workers, opts.ValFraction = 1, workers, 0
			start := time.Now()
			var took time.Duration
			_, err := classifier.Fit(context.Background(), opts, tab, classifier.Target{Labels: labels}, nil,
				func(e classifier.Epoch) error { took = e.Elapsed; return nil })
			if err != nil {
				t.Fatal(err)
			}
			s := took.Seconds()
			secs[workers] = append(secs[workers], s)
			perCore := float64(*mnistSpeed) / s / float64(workers)
			fractions[workers] = append(fractions[workers], perCore*flops/gemm)
			t.Logf("repeat %d, %d worker(s): epoch of %d images %.2f s (fit %.2f s), %.0f images/s per core, Dgemm %.2f GFLOP/s, fraction %.2f, load %s",
				rep+1, workers, *mnistSpeed, s, time.Since(start).Seconds(), perCore, gemm/1e9, perCore*flops/gemm, loadavg())
		}
	}
	for _, w := range []int{1, 2} {
		s := median(secs[w])
		perCore := float64(*mnistSpeed) / s / float64(w)
		t.Logf("%d worker(s): median epoch %.2f s, %.0f images/s, %.0f images/s per core (%.2f GFLOP/s), median fraction of Dgemm %.0f%%",
			w, s, float64(*mnistSpeed)/s, perCore, perCore*flops/1e9, 100*median(fractions[w]))
	}
	t.Logf("2 workers' epoch / 1 worker's: %.2f", median(secs[2])/median(secs[1]))
}

// mnistAccuracyRun trains the default CNN on the 60,000 training images
// with the 10,000 test images as the validation set, reporting the test
// accuracy of every epoch.
func mnistAccuracyRun(t *testing.T, train, test mnist.Set) {
	trTab, trLabels := table(train, train.Len())
	teTab, teLabels := table(test, test.Len())
	all := &classifier.Table{Image: trTab.Image}
	all.Image.Pixels = append(all.Image.Pixels, teTab.Image.Pixels...)
	labels := append(trLabels, teLabels...)
	val := make([]bool, len(labels))
	for i := train.Len(); i < len(val); i++ {
		val[i] = true
	}
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.Workers, opts.Patience = *mnistEpochs, *mnistWorkers, 0
	t.Logf("%d epochs, %d workers, batch %d, Adam lr %g", opts.Epochs, opts.Workers, opts.BatchSize, opts.LR)
	_, err := classifier.Fit(context.Background(), opts, all, classifier.Target{Labels: labels}, val, func(e classifier.Epoch) error {
		t.Logf("epoch %d: train loss %.4f, test loss %.4f, test accuracy %.2f%%, elapsed %.0f s, load %s",
			e.Epoch, e.TrainLoss, e.ValLoss, 100*e.ValAccuracy, e.Elapsed.Seconds(), loadavg())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
