package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// trainGoal is the largest ratio of the training time with two workers to
// the time with one that meets the goal.
const trainGoal = 0.6

// The synthetic data set and the run measured on it: the default
// configuration, its full correlation graph, for trainEpochs epochs.
const (
	trainEntities = 200
	trainSteps    = 2000
	trainEpochs   = 1
	trainSeed     = 1
)

// trainRun is one measured training run.
type trainRun struct {
	secs, cpu float64 // wall and process CPU seconds
	allocGB   float64 // heap allocated during the run
	trainMSE  float64 // after the last epoch
}

// runTrain measures gat.Train on a synthetic data set with one worker and
// with two, alternating which goes first, and gonum's dgemm rate before and
// after, and prints the ratio against the goal and each epoch against its
// arithmetic floor.
func runTrain(ctx context.Context, o options) error {
	m := series.Synthetic(trainEntities, trainSteps, trainSeed, 24, 168)
	// The published network: the epoch's cost is the network's, which
	// anchoring does not change, without the anchor's fitting before it.
	cfg := gat.PublishedConfig()
	cfg.Epochs, cfg.Seed = trainEpochs, trainSeed
	train, test, err := series.Split(m, cfg.Window, cfg.TrainFraction)
	if err != nil {
		return err
	}
	procs := runtime.GOMAXPROCS(0)
	fmt.Fprintf(o.Out, "== train: gat.Train, published configuration (window %d, hidden %v, heads %d, %s, batch %d),\n"+
		"   full correlation graph, %d epoch(s); %d entities x %d steps (%d training, %d test samples); GOMAXPROCS %d\n",
		cfg.Window, cfg.Hidden, cfg.Heads, cfg.Optimizer, cfg.BatchSize, cfg.Epochs, m.N, m.T, len(train), len(test), procs)
	fmt.Fprintln(o.Out, "  gonum dgemm (mat.Dense.Mul of square matrices), best of 5 per size, GFLOP/s:")
	one, all := dgemmRate(o, "before", 1), dgemmRate(o, "before", procs)
	runs, err := trainRounds(ctx, o, cfg, m)
	if err != nil {
		return err
	}
	if err := checkWorkersAgree(runs); err != nil {
		return err
	}
	one, all = max(one, dgemmRate(o, "after", 1)), max(all, dgemmRate(o, "after", procs))
	flops := gat.FLOPsPerEpoch(cfg, m.N, len(train), len(test))
	reportTrain(o, cfg, runs, flops, one, all)
	return nil
}

// trainRounds trains with one worker and with two in a warm-up round and
// then o.Runs recorded rounds, alternating which goes first, and returns
// the recorded runs by the number of workers.
func trainRounds(ctx context.Context, o options, cfg gat.Config, m series.Matrix) (map[int][]trainRun, error) {
	runs := map[int][]trainRun{}
	for round := 0; round <= o.Runs; round++ {
		label := fmt.Sprintf("round %d/%d", round, o.Runs)
		if round == 0 {
			label = "warm-up (not recorded)"
		}
		fmt.Fprintf(o.Out, "  %s, host load average %.2f\n", label, loadAverage())
		for _, workers := range [][]int{{1, 2}, {2, 1}}[round%2] {
			r, err := timeTraining(ctx, cfg, workers, m)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(o.Out, "    workers %d  %7.3fs  cpu %7.3fs  allocated %6.2f GB  train MSE %.12g\n",
				workers, r.secs, r.cpu, r.allocGB, r.trainMSE)
			if round > 0 {
				runs[workers] = append(runs[workers], r)
			}
		}
	}
	return runs, nil
}

// timeTraining trains cfg with the given workers on m and times it.
func timeTraining(ctx context.Context, cfg gat.Config, workers int, m series.Matrix) (trainRun, error) {
	cfg.Workers = workers
	var last gat.Epoch
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cpu, start := cpuSeconds(), time.Now()
	_, err := gat.Train(ctx, cfg, m, func(e gat.Epoch) error { last = e; return nil })
	secs, cpu := time.Since(start).Seconds(), cpuSeconds()-cpu
	runtime.ReadMemStats(&after)
	if err != nil {
		return trainRun{}, fmt.Errorf("train with %d workers: %w", workers, err)
	}
	return trainRun{secs: secs, cpu: cpu, allocGB: float64(after.TotalAlloc-before.TotalAlloc) / 1e9, trainMSE: last.TrainMSE}, nil
}

// checkWorkersAgree reports an error unless every run reached the training
// MSE of the first run with one worker, within 1e-9 relative for two
// workers and exactly for one: the workers split the same batches, so only
// the order of floating-point sums differs.
func checkWorkersAgree(runs map[int][]trainRun) error {
	want := runs[1][0].trainMSE
	for workers, rs := range runs {
		for _, r := range rs {
			d := math.Abs(r.trainMSE - want)
			if workers == 1 && d != 0 || !(d <= 1e-9*math.Abs(want)) {
				return fmt.Errorf("train: %d worker(s) reached MSE %.17g, the first run with 1 worker %.17g", workers, r.trainMSE, want)
			}
		}
	}
	return nil
}

// dgemmRate is the best GFLOP/s of gonum's dgemm over square products of
// a few orders, with GOMAXPROCS procs (gonum splits a product over that
// many goroutines). It prints each order's rate, labelled when.
func dgemmRate(o options, when string, procs int) float64 {
	prev := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(prev)
	fmt.Fprintf(o.Out, "    %-6s training, %d proc(s):", when, procs)
	best := 0.0
	for _, size := range []int{256, 512} {
		r := dgemmBest(size)
		fmt.Fprintf(o.Out, "  %d x %d %6.2f", size, size, r)
		best = max(best, r)
	}
	fmt.Fprintln(o.Out)
	return best
}

// dgemmBest times repeated size x size products for at least 0.1 s, five
// times, and returns the best rate in GFLOP/s.
func dgemmBest(size int) float64 {
	rng := rand.New(rand.NewPCG(uint64(size), 1))
	a, b, c := mat.NewDense(size, size, nil), mat.NewDense(size, size, nil), mat.NewDense(size, size, nil)
	for _, x := range []*mat.Dense{a, b} {
		data := x.RawMatrix().Data
		for i := range data {
			data[i] = rng.Float64()
		}
	}
	c.Mul(a, b)
	flops := 2 * math.Pow(float64(size), 3)
	best := 0.0
	for range 5 {
		reps, start := 0, time.Now()
		for ; reps == 0 || time.Since(start) < 100*time.Millisecond; reps++ {
			c.Mul(a, b)
		}
		best = max(best, float64(reps)*flops/time.Since(start).Seconds()/1e9)
	}
	return best
}

// reportTrain prints the medians, their ratio against the goal, and each
// configuration's epoch time against the floor FLOPs/dgemm rate, where one
// and all are the best dgemm rates with one proc and with all of them.
func reportTrain(o options, cfg gat.Config, runs map[int][]trainRun, flops, one, all float64) {
	out := o.Out
	med := func(workers int, f func(trainRun) float64) float64 {
		var m measurement
		for _, r := range runs[workers] {
			m.Runs = append(m.Runs, f(r))
		}
		return m.median()
	}
	secs := func(r trainRun) float64 { return r.secs }
	t1, t2 := med(1, secs), med(2, secs)
	verdict := "met"
	if t2/t1 > trainGoal {
		verdict = "missed"
	}
	fmt.Fprintf(out, "\n== train summary: medians of %d rounds (order alternating after a warm-up)\n", o.Runs)
	fmt.Fprintf(out, "%-44s %9s %9s %6s  %-7s %s\n", "measure", "workers2", "workers1", "ratio", "goal", "met")
	fmt.Fprintf(out, "%-44s %8.3fs %8.3fs %6.2f  <= %.1f  %s\n", fmt.Sprintf("gat.Train %dx%d, %d epoch(s)", trainEntities, trainSteps, cfg.Epochs),
		t2, t1, t2/t1, trainGoal, verdict)
	fmt.Fprintf(out, "  cpu seconds: workers1 %.3fs, workers2 %.3fs; heap allocated per run: %.2f GB, %.2f GB\n",
		med(1, func(r trainRun) float64 { return r.cpu }), med(2, func(r trainRun) float64 { return r.cpu }),
		med(1, func(r trainRun) float64 { return r.allocGB }), med(2, func(r trainRun) float64 { return r.allocGB }))
	epochs := float64(cfg.Epochs)
	reportFloor(out, flops, t1/epochs, t2/epochs, one, all)
}

// reportFloor prints the epoch times e1 and e2 of one and two workers
// against the floor FLOPs/dgemm rate, with one proc and with all.
func reportFloor(out io.Writer, flops, e1, e2, one, all float64) {
	fmt.Fprintf(out, "\nepoch against the arithmetic floor (floor = FLOPs per epoch / best dgemm GFLOP/s):\n")
	fmt.Fprintf(out, "  FLOPs per epoch %.3g (%.2f GFLOP)\n", flops, flops/1e9)
	for _, c := range []struct {
		workers     int
		epoch, rate float64
		procs       string
	}{{1, e1, one, "1 proc"}, {2, e2, all, fmt.Sprintf("%d procs", runtime.GOMAXPROCS(0))}} {
		floor := flops / (c.rate * 1e9)
		fmt.Fprintf(out, "  workers %d: epoch %7.3fs, floor %7.3fs at %6.2f GFLOP/s (dgemm, %s), epoch/floor %5.1f\n",
			c.workers, c.epoch, floor, c.rate, c.procs, c.epoch/floor)
	}
	fmt.Fprintln(out, "  counted: per training sample the correlation graph (standardised windows, their Gram matrix),")
	fmt.Fprintln(out, "  every layer's forward (x W, node scores, attention logits and softmax per edge and head,")
	fmt.Fprintln(out, "  weighted sums, skip map, bias, ReLU) and backward (about twice the forward's products);")
	fmt.Fprintln(out, "  per sample, training and test, the evaluation's graph and forward; per mini-batch the")
	fmt.Fprintln(out, "  optimiser step. A multiply-add is 2 FLOPs, an exp or a comparison 1; edge lists are not counted.")
	fmt.Fprintln(out, "  The epoch time includes the epoch's evaluation; times are of gat.Train, so they include setup.")
}
