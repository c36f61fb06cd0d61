//go:build mpi

package job_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/series"
)

// BenchmarkMPIScaling prints, for each model, the epoch time of 1 rank x 1
// worker and of 2 ranks x 1 worker (mpirun --bind-to none --mca
// mpi_yield_when_idle 1 on this machine, Open MPI's default transports),
// their ratio, and the 2 ranks' all-reduce share. It also prints this
// host's floor for that ratio: two 1 x 1 runs of the whole job started at
// once each take an epoch time P, so two processors do two epochs' work in
// P, and 2 ranks that split one epoch's work perfectly, exchanging nothing,
// would take P/2: the floor is P/2 over the 1 x 1 epoch time alone. Where
// the processors slow each other down (shared caches, memory bandwidth, a
// hypervisor's sibling threads), it is above 0.5.
// The two are run interleaved, MPI_BENCH_ROUNDS times (3 by default); an
// epoch time is the mean of a run's epochs after the first (which has
// the set-up in it), and the table shows each configuration's median.
// MPI_BENCH_SHAPES (as "1x1,1x16,4x4": ranks x workers, comma-separated)
// prints instead each shape's epoch time and speed-up over the first, for
// a machine of many processors (see benchShapes).
// MPI_BENCH_MODELS (gat, gat-shard, recommender, ranking, comma-separated;
// all but ranking by default) picks the models: gat-shard is the GAT job
// sharded by sample, as train_gat's ranks := N exports it (each rank
// reads only its samples' rows, and its samples of a mini-batch vary in
// number), and ranking the recommender with the ranking objective's
// default options. MPI_BENCH_BASELINE names other mallard
// binaries built with MPI, of the same version (say, of the last commit),
// separated by colons: their runs are interleaved with this tree's and
// shown on lines of their own, marked with their file names, so that a
// change is measured against them on the same machine at the same time.
func BenchmarkMPIScaling(b *testing.B) {
	bins := []struct{ label, path string }{{"", mallard(b)}}
	for base := range strings.SplitSeq(os.Getenv("MPI_BENCH_BASELINE"), ":") {
		if base != "" {
			bins = append(bins, struct{ label, path string }{" [" + filepath.Base(base) + "]", base})
		}
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("MPI_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	models := os.Getenv("MPI_BENCH_MODELS")
	if models == "" {
		models = "gat,gat-shard,recommender"
	}
	var jobs []benchJob
	for _, m := range strings.Split(models, ",") {
		switch m {
		case "gat":
			jobs = append(jobs, benchJob{"gat (60 entities x 1200 steps, hidden 32,32)", everyRow(benchGAT(b))})
		case "gat-shard":
			jobs = append(jobs, benchJob{"gat, each rank its samples' rows (the same)", benchGATShard()})
		case "recommender":
			jobs = append(jobs, benchJob{"recommender (4000 users x 1200 items, 5%, hidden 150,25,150)", everyRow(benchRecommender(b, `{"epochs": 4, "rank_users": 500}`))})
		case "ranking":
			// DefaultRankingConfig's options.
			jobs = append(jobs, benchJob{"recommender, ranking (the same, hidden 200, 1000 negatives)",
				everyRow(benchRecommender(b, `{"epochs": 4, "rank_users": 500, "objective": "ranking", "hidden": [200], "lr": 0.003, "dropout": 0.5, "negatives": 1000}`))})
		default:
			b.Fatalf("MPI_BENCH_MODELS %q: each must be gat, gat-shard, recommender or ranking", models)
		}
	}
	if shapes := os.Getenv("MPI_BENCH_SHAPES"); shapes != "" {
		benchShapes(b, bins[0].path, jobs, rounds, shapes)
		return
	}
	fmt.Printf("%-74s %12s %12s %8s %16s %7s\n", "model", "1x1 epoch s", "2x1 epoch s", "2x1/1x1", "all-reduce share", "floor")
	for _, j := range jobs {
		one, two, share := make([][]float64, len(bins)), make([][]float64, len(bins)), make([][]float64, len(bins))
		var pair []float64 // two 1 x 1 runs of this tree's binary at once: their mean epoch time
		twin := copyJob(b, j.dir(b, 1, 1))
		for range rounds {
			for k, bin := range bins {
				for _, ranks := range []int{1, 2} {
					epoch, reduce := benchRun(b, bin.path, j.dir(b, ranks, 1), ranks)
					if ranks == 1 {
						one[k] = append(one[k], epoch)
					} else {
						two[k], share[k] = append(two[k], epoch), append(share[k], reduce)
					}
				}
			}
			pair = append(pair, benchPair(b, bins[0].path, j.dir(b, 1, 1), twin))
		}
		for k, bin := range bins {
			o, t := median(one[k]), median(two[k])
			fmt.Printf("%-74s %12.3f %12.3f %8.2f %15.1f%% %7.2f\n", j.name+bin.label, o, t, t/o, 100*median(share[k]), median(pair)/2/median(one[0]))
		}
	}
}

// benchShapes prints, for each job, the epoch time of each of shapes
// (comma-separated ranks x workers, as "4x4"), the first shape's epoch
// time over each one's (its speed-up), and rank 0's share of the run in
// the all-reduce across ranks: medians of rounds runs, the shapes
// interleaved.
func benchShapes(b *testing.B, bin string, jobs []benchJob, rounds int, shapes string) {
	type shape struct{ ranks, workers int }
	var list []shape
	for s := range strings.SplitSeq(shapes, ",") {
		r, w, ok := strings.Cut(s, "x")
		ranks, err1 := strconv.Atoi(r)
		workers, err2 := strconv.Atoi(w)
		if !ok || err1 != nil || err2 != nil || ranks < 1 || workers < 1 {
			b.Fatalf("MPI_BENCH_SHAPES %q: each must be RANKSxWORKERS, as 4x4", shapes)
		}
		list = append(list, shape{ranks, workers})
	}
	fmt.Printf("%-74s %7s %10s %9s %16s\n", "model", "shape", "epoch s", "speed-up", "all-reduce share")
	for _, j := range jobs {
		epochs, shares := make([][]float64, len(list)), make([][]float64, len(list))
		for range rounds {
			for k, s := range list {
				epoch, reduce := benchRun(b, bin, j.dir(b, s.ranks, s.workers), s.ranks)
				epochs[k], shares[k] = append(epochs[k], epoch), append(shares[k], reduce)
			}
		}
		for k, s := range list {
			e := median(epochs[k])
			fmt.Printf("%-74s %7s %10.3f %9.2f %15.1f%%\n", j.name, fmt.Sprintf("%dx%d", s.ranks, s.workers), e, median(epochs[0])/e, 100*median(shares[k]))
		}
	}
}

// benchPair runs the 1 x 1 job of dir and its copy twin at once and
// returns the mean of their epoch times.
func benchPair(b *testing.B, bin, dir, twin string) float64 {
	var other float64
	done := make(chan struct{})
	go func() {
		defer close(done)
		other, _ = benchRun(b, bin, twin, 1)
	}()
	epoch, _ := benchRun(b, bin, dir, 1)
	<-done
	return (epoch + other) / 2
}

// copyJob copies the files of the job in dir into a new directory.
func copyJob(b *testing.B, dir string) string {
	twin := b.TempDir()
	files, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		if f.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err == nil {
			err = os.WriteFile(filepath.Join(twin, f.Name()), data, 0o644)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return twin
}

// benchRun runs the job in dir on ranks ranks and returns its mean epoch
// time after the first, in seconds, and rank 0's share of the run in the
// all-reduce across ranks.
func benchRun(b *testing.B, bin, dir string, ranks int) (epoch, reduce float64) {
	// Unbound, as on Kubernetes: a rank bound to a core cannot move off
	// it when another process of this shared machine takes that core. A
	// rank waiting in MPI yields its processor rather than spin on it, for
	// the same reason.
	out, err := mpirunIn(b, false, "-np", strconv.Itoa(ranks), "--bind-to", "none", "--mca", "mpi_yield_when_idle", "1",
		bin, "train-worker", "--job", dir)
	if err != nil {
		b.Fatalf("mpirun: %v\n%s", err, out)
	}
	p := readProgress(b, dir)
	if len(p) < 2 {
		b.Fatalf("%d epochs", len(p))
	}
	last, first := float64(p[len(p)-1].ElapsedMS), float64(p[0].ElapsedMS)
	epoch = (last - first) / 1000 / float64(len(p)-1)
	m := reduceLine.FindStringSubmatch(out)
	if m == nil {
		b.Fatalf("rank 0 printed no all-reduce time:\n%s", out)
	}
	secs, _ := strconv.ParseFloat(m[1], 64)
	return epoch, secs / (last / 1000)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchJob is a job of the benchmark: dir returns the directory of its
// job for ranks ranks of workers workers each.
type benchJob struct {
	name string
	dir  func(b *testing.B, ranks, workers int) string
}

// everyRow is the dir of a job whose every rank reads every row, in dir:
// the spec's workers are set to each call's.
func everyRow(dir string) func(b *testing.B, ranks, workers int) string {
	return func(b *testing.B, _, workers int) string {
		spec, err := job.ReadSpec(dir, binVersion)
		if err != nil {
			b.Fatal(err)
		}
		spec.Workers = workers
		if err := spec.Write(dir); err != nil {
			b.Fatal(err)
		}
		return dir
	}
}

// benchGATMatrix and benchGATHyper are the GAT job's series and options.
func benchGATMatrix() series.Matrix { return series.Synthetic(60, 1200, 11, 12, 52) }

const benchGATHyper = `{"epochs": 4, "hidden": [32, 32], "batch_size": 32, "patience": 0}`

// benchGATShard is the dir of the GAT job sharded by sample, as train_gat
// exports it, for each shape, written at its first use.
func benchGATShard() func(b *testing.B, ranks, workers int) string {
	dirs := map[[2]int]string{}
	return func(b *testing.B, ranks, workers int) string {
		if d, ok := dirs[[2]int{ranks, workers}]; ok {
			return d
		}
		spec := job.Spec{Version: binVersion, Kind: job.KindGAT, Time: []string{"t"}, Seed: 1, Workers: workers, GAT: json.RawMessage(benchGATHyper)}
		dir := writeGATSharded(b, spec, benchGATMatrix(), gat.Start{}, ranks)
		dirs[[2]int{ranks, workers}] = dir
		return dir
	}
}

func benchGAT(b *testing.B) string {
	dir := b.TempDir()
	if err := job.WriteMatrix(context.Background(), filepath.Join(dir, "part-0.parquet"), benchGATMatrix()); err != nil {
		b.Fatal(err)
	}
	spec := job.Spec{Version: binVersion, Kind: job.KindGAT, Time: []string{"t"}, Seed: 1, Workers: 1,
		GAT: json.RawMessage(benchGATHyper)}
	if err := spec.Write(dir); err != nil {
		b.Fatal(err)
	}
	return dir
}

// benchRecommender writes the benchmark's recommender job, of the
// hyperparameters hyper.
func benchRecommender(b *testing.B, hyper string) string {
	dir := b.TempDir()
	q := `SELECT u AS user_id, i AS item_id, CAST(1 + ((u % 11) * (i % 7) + u // 400 + i // 300) % 5 AS DOUBLE) AS rating
FROM range(4000) a(u), range(1200) c(i) WHERE (u * 7919 + i * 104729) % 20 = 0`
	if err := job.WriteQuery(context.Background(), filepath.Join(dir, "ratings.parquet"), q); err != nil {
		b.Fatal(err)
	}
	spec := job.Spec{Version: binVersion, Kind: job.KindRecommender, Seed: 1, Workers: 1,
		Recommender: json.RawMessage(hyper)}
	if err := spec.Write(dir); err != nil {
		b.Fatal(err)
	}
	return dir
}
