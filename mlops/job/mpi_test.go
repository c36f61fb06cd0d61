//go:build mpi

package job_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/parallel"
)

var (
	buildOnce  sync.Once
	binPath    string // the binary mallard built, removed at the end
	builtPath  string // the binary the tests run: binPath or MALLARD_MPI_BIN
	binVersion string // what the binary says it is
	buildErr   error
)

// TestMain removes the binary mallard built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// mallard builds cmd/mallard with MPI, once per test binary, unless
// MALLARD_MPI_BIN names one built already (say, for a machine without Go).
func mallard(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		bin := os.Getenv("MALLARD_MPI_BIN")
		if bin == "" {
			dir, err := os.MkdirTemp("", "mallard-mpi-")
			if err != nil {
				buildErr = err
				return
			}
			binPath = filepath.Join(dir, "mallard")
			bin = binPath
			cmd := exec.Command("go", "build", "-tags", "duckdb_arrow,mpi", "-o", bin, "../../cmd/mallard")
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = err
				t.Logf("%s", out)
				return
			}
		}
		builtPath = bin
		out, err := exec.Command(bin, "version").Output()
		if f := strings.Fields(string(out)); err != nil || len(f) < 2 {
			buildErr = fmt.Errorf("mallard version: %v (%q)", err, out)
		} else {
			binVersion = f[1]
		}
	})
	if buildErr != nil {
		t.Fatalf("build mallard with MPI: %v", buildErr)
	}
	return builtPath
}

// loopback are mpirun's options for ranks on this machine that talk over
// TCP on the loopback interface, as ranks on separate machines would.
var loopback = []string{"--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo"}

// mpirun runs mpirun over loopback with args and returns its output and error.
func mpirun(t testing.TB, args ...string) (string, error) { return mpirunIn(t, true, args...) }

// mpirunIn is mpirun, over the loopback interface or Open MPI's default
// transports (shared memory between ranks on one machine).
func mpirunIn(t testing.TB, overLoopback bool, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if overLoopback {
		args = append(append([]string(nil), loopback...), args...)
	}
	cmd := exec.CommandContext(ctx, "mpirun", args...)
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "OMPI_MCA_rmaps_base_oversubscribe=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

var (
	doneLine   = regexp.MustCompile(`rank (\d+)/(\d+): (\d+) workers, (\d+) epochs, weights sha256 ([0-9a-f]{64})`)
	reduceLine = regexp.MustCompile(`rank 0/\d+: .*all-reduce across ranks ([0-9.]+)s`)
)

// digests are the weights' digests each rank printed, by rank.
func digests(t *testing.T, out string, ranks int) []string {
	t.Helper()
	got := make([]string, ranks)
	for _, m := range doneLine.FindAllStringSubmatch(out, -1) {
		r, _ := strconv.Atoi(m[1])
		if r < ranks {
			got[r] = m[5]
		}
	}
	for r, d := range got {
		if d == "" {
			t.Fatalf("rank %d printed no result:\n%s", r, out)
		}
	}
	return got
}

// trainRanks runs the job in dir on ranks ranks under mpirun over loopback
// and returns mpirun's output, failing t unless every rank ends with the
// same weights.
func trainRanks(t *testing.T, bin, dir string, ranks int) string {
	t.Helper()
	args := []string{"-np", strconv.Itoa(ranks)}
	if ranks > runtime.NumCPU() {
		args = append(args, "--oversubscribe")
	}
	out, err := mpirun(t, append(args, bin, "train-worker", "--job", dir)...)
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	ds := digests(t, out, ranks)
	for r, d := range ds {
		if d != ds[0] {
			t.Errorf("rank %d's weights differ from rank 0's", r)
		}
	}
	return out
}

// TestMPIMatchesOneProcess checks that ranks x workers over MPI train the
// model that one process of as many workers trains: the loss curves equal
// to 1e-9 relative, every rank's final weights equal bit for bit.
func TestMPIMatchesOneProcess(t *testing.T) {
	bin := mallard(t)
	cases := []struct {
		kind, hyper    string
		ranks, workers int
	}{{job.KindGAT, smallGAT, 2, 1}, {job.KindGAT, smallGAT, 3, 1}, {job.KindGAT, smallGAT, 2, 2},
		{job.KindRecommender, smallRecommender, 2, 1}, {job.KindRecommender, smallRecommender, 3, 1},
		{job.KindRecommender, rankingRecommender, 2, 1}, {job.KindRecommender, rankingRecommender, 2, 2}}
	for _, tc := range cases {
		newJob := func(workers int) string {
			if tc.kind == job.KindGAT {
				return gatJobOf(t, binVersion, workers, tc.hyper)
			}
			return recJobOf(t, binVersion, workers, tc.hyper)
		}
		name := tc.kind
		if tc.hyper == rankingRecommender {
			name += " ranking"
		}
		t.Run(name+" "+strconv.Itoa(tc.ranks)+"x"+strconv.Itoa(tc.workers), func(t *testing.T) {
			one := newJob(tc.ranks * tc.workers)
			if out, err := exec.Command(bin, "train-worker", "--job", one).CombinedOutput(); err != nil {
				t.Fatalf("one process: %v\n%s", err, out)
			}
			many := newJob(tc.workers)
			trainRanks(t, bin, many, tc.ranks)
			sameProgress(t, readProgress(t, many), readProgress(t, one))
			if _, err := os.Stat(filepath.Join(many, job.ArtifactFile)); err != nil {
				t.Fatalf("rank 0 wrote no artifact: %v", err)
			}
			if tc.ranks == 2 && tc.workers == 1 { // two addends: the same sum in any order (see sameArtifact)
				sameArtifact(t, tc.kind, one, many)
			}
		})
	}
}

// TestMPIRankFailureFailsTheJob checks that a rank that fails ends the
// job: mpirun exits non-zero with the rank's error, the other rank,
// blocked in an all-reduce, is ended too, and no artifact is written.
func TestMPIRankFailureFailsTheJob(t *testing.T) {
	bin := mallard(t)
	good := gatJobOf(t, binVersion, 1, `{"epochs": 50, "hidden": [8, 8], "batch_size": 16, "patience": 0}`)
	bad := t.TempDir() // no job.json: rank 1 fails as it starts
	start := time.Now()
	out, err := mpirun(t, "-np", "1", bin, "train-worker", "--job", good, ":", "-np", "1", bin, "train-worker", "--job", bad)
	if err == nil {
		t.Fatalf("mpirun succeeded:\n%s", out)
	}
	if !strings.Contains(out, "train-worker rank 1 of 2: read job spec") {
		t.Errorf("mpirun's output does not carry rank 1's error:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(good, job.ArtifactFile)); err == nil {
		t.Errorf("the failed job wrote an artifact")
	}
	t.Logf("the job failed after %v", time.Since(start))
}

// TestMPIRefusesAnotherVersion checks that ranks refuse a job spec
// written for another version of Mallard.
func TestMPIRefusesAnotherVersion(t *testing.T) {
	bin := mallard(t)
	dir := gatJob(t, 1, smallGAT) // written for version "test-1"
	out, err := mpirun(t, "-np", "2", bin, "train-worker", "--job", dir)
	if err == nil || !strings.Contains(out, "job spec of another Mallard version") || !strings.Contains(out, `"test-1"`) {
		t.Fatalf("mpirun = %v, want the version refused:\n%s", err, out)
	}
}

// procsLine is what each rank says of its machine's processors.
var procsLine = regexp.MustCompile(`rank (\d+)/\d+: .*, (\d+) of the job's ranks on this machine, GOMAXPROCS (\d+) of (\d+)`)

// TestMPIRanksShareProcessors checks that ranks on one machine count each
// other (MPI_COMM_TYPE_SHARED) and run with parallel.Processors's
// GOMAXPROCS: 2 ranks of 1 worker, 2 and 3 of 2 (on 2 processors their
// share is what they had; on more, 2 x 2 and 3 x 2 get less), and that
// GOMAXPROCS in the environment is left as it is.
func TestMPIRanksShareProcessors(t *testing.T) {
	bin := mallard(t)
	cases := []struct {
		ranks, workers int
		env            string // GOMAXPROCS
	}{{2, 1, ""}, {2, 2, ""}, {3, 2, ""}, {2, 2, "3"}}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%dx%d GOMAXPROCS=%q", tc.ranks, tc.workers, tc.env), func(t *testing.T) {
			t.Setenv("GOMAXPROCS", tc.env) // mpirun hands its environment to the ranks
			dir := gatJobOf(t, binVersion, tc.workers, smallGAT)
			out, err := mpirun(t, "-np", strconv.Itoa(tc.ranks), bin, "train-worker", "--job", dir)
			if err != nil {
				t.Fatalf("mpirun: %v\n%s", err, out)
			}
			lines := procsLine.FindAllStringSubmatch(out, -1)
			if len(lines) != tc.ranks {
				t.Fatalf("%d ranks said what they ran on, want %d:\n%s", len(lines), tc.ranks, out)
			}
			for _, m := range lines {
				here, procs, had := atoi(t, m[2]), atoi(t, m[3]), atoi(t, m[4])
				want := parallel.Processors(had, tc.ranks, tc.workers)
				if tc.env != "" {
					want = atoi(t, tc.env)
				}
				if here != tc.ranks || procs != want {
					t.Errorf("rank %s: %d ranks here, GOMAXPROCS %d of %d; want %d ranks, GOMAXPROCS %d", m[1], here, procs, had, tc.ranks, want)
				}
			}
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// readLine is what each rank says it read of the source.
var readLine = regexp.MustCompile(`rank (\d+)/\d+: .*, read (\d+) of (\d+) rows`)

// TestMPIShardedMatchesOneProcess checks a sharded recommender job under
// mpirun: each rank reads only its own users' ratings (together every one
// once), every rank ends with the same weights, and the curve is that of
// one process of as many workers on the same job sharded for one rank, to
// 1e-9 relative; for the rating objective on 2 and 3 ranks, and for the
// ranking objective (whose ranks also hand each other the places of their
// users' interactions) on 2.
func TestMPIShardedMatchesOneProcess(t *testing.T) {
	bin := mallard(t)
	train, test := shardedRatings(t)
	total := train.Len() + test.Len()
	cases := []struct {
		name, hyper string
		ranks       int
	}{{"2x1", smallRecommender, 2}, {"3x1", smallRecommender, 3}, {"ranking 2x1", rankingRecommender, 2}}
	for _, tc := range cases {
		ranks := tc.ranks
		t.Run(tc.name, func(t *testing.T) {
			one := shardedJobOf(t, binVersion, 1, ranks, tc.hyper, train, test)
			if out, err := exec.Command(bin, "train-worker", "--job", one).CombinedOutput(); err != nil {
				t.Fatalf("one process: %v\n%s", err, out)
			}
			many := shardedJobOf(t, binVersion, ranks, 1, tc.hyper, train, test)
			out := trainRanks(t, bin, many, ranks)
			read := 0
			for _, m := range readLine.FindAllStringSubmatch(out, -1) {
				n, _ := strconv.Atoi(m[2])
				if all, _ := strconv.Atoi(m[3]); all != total || n >= total {
					t.Errorf("rank %s read %d of %s rows, want its share of %d", m[1], n, m[3], total)
				}
				read += n
			}
			if read != total {
				t.Errorf("the ranks read %d rows in all, want %d:\n%s", read, total, out)
			}
			sameProgress(t, readProgress(t, many), readProgress(t, one))
		})
	}
}

// TestMPIGATShardedMatchesOneProcess checks a sharded GAT job under
// mpirun, on 2 and 3 ranks: each rank reads only its own samples' rows
// (fewer than every row; together at least every row), every rank ends
// with the same weights, and the curve is that of one process of as many
// workers reading every row, to 1e-9 relative.
func TestMPIGATShardedMatchesOneProcess(t *testing.T) {
	bin := mallard(t)
	rows := gatMatrix().T
	for _, ranks := range []int{2, 3} {
		t.Run(strconv.Itoa(ranks)+"x1", func(t *testing.T) {
			one := gatJobOf(t, binVersion, ranks, smallGAT)
			if out, err := exec.Command(bin, "train-worker", "--job", one).CombinedOutput(); err != nil {
				t.Fatalf("one process: %v\n%s", err, out)
			}
			many := gatShardedJobOf(t, binVersion, ranks, 1, smallGAT, gat.Start{})
			out := trainRanks(t, bin, many, ranks)
			read, lines := 0, readLine.FindAllStringSubmatch(out, -1)
			for _, m := range lines {
				n, _ := strconv.Atoi(m[2])
				if all, _ := strconv.Atoi(m[3]); all != rows || n >= rows || n == 0 {
					t.Errorf("rank %s read %d of %s rows, want its share of %d", m[1], n, m[3], rows)
				}
				read += n
			}
			if len(lines) != ranks || read < rows {
				t.Errorf("%d ranks read %d rows in all, want %d ranks and at least %d:\n%s", len(lines), read, ranks, rows, out)
			}
			sameProgress(t, readProgress(t, many), readProgress(t, one))
		})
	}
}

// TestMPIRecommenderStart checks, under mpirun, a recommender job across
// 2 ranks that starts from the last checkpoint of another such job (see
// TestRecommenderJobStart), every rank reading every rating or sharded:
// it trains the epochs after the checkpoint's, every rank to the same
// weights bit for bit, along the curve of one process of 2 workers from
// the same checkpoint, to 1e-9 relative.
func TestMPIRecommenderStart(t *testing.T) {
	bin := mallard(t)
	train, test := shardedRatings(t)
	for _, sharded := range []bool{false, true} {
		newJob := func(ranks, workers int) string {
			if sharded {
				return shardedJob(t, binVersion, ranks, workers, train, test)
			}
			return recJobOf(t, binVersion, workers, smallRecommender)
		}
		t.Run(map[bool]string{false: "every rating", true: "sharded"}[sharded], func(t *testing.T) {
			first := newJob(2, 1)
			startFrom(t, first, binVersion, "", 0, 2)
			if out, err := mpirun(t, "-np", "2", bin, "train-worker", "--job", first); err != nil {
				t.Fatalf("mpirun: %v\n%s", err, out)
			}
			across, one := newJob(2, 1), newJob(1, 2)
			for _, dir := range []string{across, one} {
				startFrom(t, dir, binVersion, filepath.Join(first, job.CheckpointFile), 2, 4)
			}
			out, err := mpirun(t, "-np", "2", bin, "train-worker", "--job", across)
			if err != nil {
				t.Fatalf("mpirun: %v\n%s", err, out)
			}
			if ds := digests(t, out, 2); ds[0] != ds[1] {
				t.Errorf("rank 1's weights differ from rank 0's")
			}
			if out, err := exec.Command(bin, "train-worker", "--job", one).CombinedOutput(); err != nil {
				t.Fatalf("one process: %v\n%s", err, out)
			}
			got := readProgress(t, across)
			if len(got) != 2 || got[0].Epoch != 3 || got[1].Epoch != 4 {
				t.Fatalf("the resumed job's epochs are %v, want 3 and 4", got)
			}
			sameProgress(t, got, readProgress(t, one))
		})
	}
}
