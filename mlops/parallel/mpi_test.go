//go:build mpi

package parallel_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// rankEnv marks a copy of the test binary that mpirun started as a rank.
const rankEnv = "MALLARD_TEST_MPI_RANK"

// TestWorld runs this test binary as 3 ranks under mpirun, each running
// TestWorldRank, over TCP on the loopback interface.
func TestWorld(t *testing.T) {
	if os.Getenv(rankEnv) != "" {
		t.Skip("a rank runs TestWorldRank")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "mpirun", "-np", "3", "--oversubscribe", "--mca", "btl", "self,tcp",
		"--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo",
		os.Args[0], "-test.run", "^TestWorldRank$", "-test.v")
	cmd.Env = append(os.Environ(), rankEnv+"=1", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "--- PASS: TestWorldRank"); n != 3 {
		t.Fatalf("%d ranks passed, want 3:\n%s", n, out)
	}
}

// TestWorldRank is one rank of TestWorld.
func TestWorldRank(t *testing.T) {
	if os.Getenv(rankEnv) == "" {
		t.Skip("run by TestWorld under mpirun")
	}
	w, err := parallel.Init()
	if err != nil {
		t.Fatal(err)
	}
	if err := worldRank(w); err != nil {
		t.Error(err)
	}
	if err := w.Close(); err != nil {
		t.Error(err)
	}
}

func worldRank(w *parallel.World) error {
	rank, size := w.Rank(), w.Size()
	if size != 3 {
		return fmt.Errorf("size %d, want 3", size)
	}
	f64 := []float64{float64(rank), 1, math.Ldexp(1, -60) * float64(rank)}
	if err := w.AllReduceSum(f64); err != nil {
		return err
	}
	if f64[0] != 3 || f64[1] != 3 || f64[2] != math.Ldexp(3, -60) {
		return fmt.Errorf("float64 sum %v", f64)
	}
	f32 := []float32{float32(rank) + 0.5}
	if err := w.AllReduceSum32(f32); err != nil {
		return err
	}
	if f32[0] != 4.5 {
		return fmt.Errorf("float32 sum %v", f32)
	}
	b := []float64{float64(10 * rank)}
	if err := w.Broadcast(b, 2); err != nil {
		return err
	}
	if b[0] != 20 {
		return fmt.Errorf("broadcast from 2: %v", b)
	}
	parts := []int{1, 2, 0}
	gather := []float64{float64(10 * rank), float64(10*rank + 1), float64(10*rank + 2)}
	if err := w.AllGather(gather, parts); err != nil {
		return err
	}
	if !slices.Equal(gather, []float64{0, 11, 12}) {
		return fmt.Errorf("all-gather of parts %v: %v", parts, gather)
	}
	// Three ranks of two workers each: a collective of six.
	c := parallel.NewRanks(w, 2)
	return parallel.RunLocals(context.Background(), c, func(ctx context.Context, r int) error {
		buf := []float64{float64(r), 1}
		if err := c.AllReduceSum(ctx, r, buf); err != nil {
			return err
		}
		if buf[0] != 15 || buf[1] != 6 {
			return fmt.Errorf("worker %d: sum %v", r, buf)
		}
		gathered := []float64{0, 0, 0}
		if r%2 == 0 {
			gathered[r/2] = float64(100 * (r / 2))
		}
		if err := c.AllGather(ctx, r, gathered, []int{1, 1, 1}); err != nil {
			return err
		}
		if !slices.Equal(gathered, []float64{0, 100, 200}) {
			return fmt.Errorf("worker %d: all-gather %v", r, gathered)
		}
		one := []float64{float64(r)}
		if err := c.Broadcast(ctx, r, 3, one); err != nil {
			return err
		}
		if one[0] != 3 {
			return errors.New("broadcast from worker 3")
		}
		return c.Barrier(ctx, r)
	})
}
