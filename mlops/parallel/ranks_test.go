package parallel_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/parallel"
)

// procs stands in for MPI: processes are goroutines that meet through a
// Local collective of their own.
type procs struct {
	rank int
	all  *parallel.Local
	fail error // returned by every operation when set
}

func (p *procs) Rank() int { return p.rank }
func (p *procs) Size() int { return p.all.Size() }
func (p *procs) AllReduceSum(buf []float64) error {
	if p.fail != nil {
		return p.fail
	}
	return p.all.AllReduceSum(context.Background(), p.rank, buf)
}
func (p *procs) Broadcast(buf []float64, root int) error {
	return p.all.Broadcast(context.Background(), p.rank, root, buf)
}
func (p *procs) Barrier() error { return p.all.Barrier(context.Background(), p.rank) }

// spread runs f on every worker of nprocs processes of workers each.
func spread(nprocs, workers int, f func(c parallel.Collective, rank int) error) error {
	all := parallel.NewLocal(nprocs)
	return parallel.Run(context.Background(), nprocs, func(ctx context.Context, p int) error {
		c := parallel.NewRanks(&procs{rank: p, all: all}, workers)
		return parallel.RunLocals(ctx, c, func(ctx context.Context, rank int) error { return f(c, rank) })
	})
}

func TestRanksAllReduceSum(t *testing.T) {
	for _, shape := range [][2]int{{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 2}} {
		nprocs, workers := shape[0], shape[1]
		size := nprocs * workers
		seen := make([]int, size)
		err := spread(nprocs, workers, func(c parallel.Collective, rank int) error {
			if c.Size() != size {
				return errors.New("wrong size")
			}
			seen[rank]++
			for round := range 20 {
				buf := []float64{float64(rank), float64(round), 1}
				if err := c.AllReduceSum(context.Background(), rank, buf); err != nil {
					return err
				}
				want := []float64{float64(size * (size - 1) / 2), float64(size * round), float64(size)}
				for i := range want {
					if buf[i] != want[i] {
						return errors.New("wrong sum")
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Errorf("%d processes x %d workers: %v", nprocs, workers, err)
		}
		for rank, n := range seen {
			if n != 1 {
				t.Errorf("%d processes x %d workers: rank %d ran %d times", nprocs, workers, rank, n)
			}
		}
	}
}

// TestRanksSumOrder checks that the sum is the processes' sums, each in
// rank order, added in process order: values whose sum depends on the
// order of the additions come out the same for every worker.
func TestRanksSumOrder(t *testing.T) {
	vals := []float64{1, 1e-16, 1e16, -1e16, 3e-17, 1} // by rank
	// 3 processes of 2: (1+1e-16) + (1e16-1e16) + (3e-17+1), as Local sums processes.
	want := ((1 + 1e-16) + (1e16 + -1e16)) + (3e-17 + 1)
	got := make([]float64, len(vals))
	err := spread(3, 2, func(c parallel.Collective, rank int) error {
		buf := []float64{vals[rank]}
		err := c.AllReduceSum(context.Background(), rank, buf)
		got[rank] = buf[0]
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for rank, g := range got {
		if math.Float64bits(g) != math.Float64bits(want) {
			t.Errorf("rank %d: %v, want %v", rank, g, want)
		}
	}
}

func TestRanksBroadcastAndBarrier(t *testing.T) {
	for root := range 6 {
		got := make([]float64, 6)
		err := spread(3, 2, func(c parallel.Collective, rank int) error {
			buf := []float64{float64(rank * 10)}
			if err := c.Broadcast(context.Background(), rank, root, buf); err != nil {
				return err
			}
			got[rank] = buf[0]
			return c.Barrier(context.Background(), rank)
		})
		if err != nil {
			t.Fatal(err)
		}
		for rank, g := range got {
			if g != float64(root*10) {
				t.Errorf("root %d: rank %d got %v", root, rank, g)
			}
		}
	}
}

// TestRanksCrossError checks that an error of the processes' side reaches
// every worker of the process.
func TestRanksCrossError(t *testing.T) {
	boom := errors.New("boom")
	c := parallel.NewRanks(&procs{all: parallel.NewLocal(1), fail: boom}, 2)
	errs := make([]error, 2)
	parallel.RunLocals(context.Background(), c, func(ctx context.Context, rank int) error {
		errs[rank] = c.AllReduceSum(ctx, rank, []float64{1})
		return nil
	})
	for rank, err := range errs {
		if !errors.Is(err, boom) {
			t.Errorf("rank %d: %v, want boom", rank, err)
		}
	}
}

func TestLocalsOfLocal(t *testing.T) {
	if first, n := parallel.Locals(parallel.NewLocal(3)); first != 0 || n != 3 {
		t.Errorf("Locals(Local(3)) = %d, %d", first, n)
	}
}

// TestRanksAllGather checks AllGather over Comms that are no
// Gatherer (procs: broadcasts) and over LocalComms: an all-gather hands
// every worker each process's part, the sum of its workers' values there.
func TestRanksAllGather(t *testing.T) {
	check := func(c *parallel.Ranks, nprocs, workers, rank int) error {
		counts := make([]int, nprocs) // process p's part: p+1 values at p(p+1)/2
		for p := range counts {
			counts[p] = p + 1
		}
		n := nprocs * (nprocs + 1) / 2
		p, local := rank/workers, rank%workers
		part := [2]int{p * (p + 1) / 2, (p + 1) * (p + 2) / 2}
		for round := range 5 {
			buf := make([]float64, n)
			for k := part[0]; k < part[1]; k++ {
				if (k-part[0])%workers == local { // each worker its own values of the part
					buf[k] = float64(1000*round + k)
				}
			}
			if err := c.AllGather(context.Background(), rank, buf, counts); err != nil {
				return err
			}
			for k := range buf {
				if buf[k] != float64(1000*round+k) {
					return fmt.Errorf("rank %d: all-gather %v", rank, buf)
				}
			}
		}
		return nil
	}
	for _, shape := range [][2]int{{1, 1}, {2, 1}, {3, 1}, {2, 2}, {3, 2}} {
		nprocs, workers := shape[0], shape[1]
		if err := spread(nprocs, workers, func(c parallel.Collective, rank int) error {
			return check(c.(*parallel.Ranks), nprocs, workers, rank)
		}); err != nil {
			t.Errorf("%d processes x %d workers, no Gatherer: %v", nprocs, workers, err)
		}
		comms := parallel.LocalComms(nprocs)
		if err := parallel.Run(context.Background(), nprocs, func(ctx context.Context, p int) error {
			c := parallel.NewRanks(comms[p], workers)
			return parallel.RunLocals(ctx, c, func(ctx context.Context, rank int) error { return check(c, nprocs, workers, rank) })
		}); err != nil {
			t.Errorf("%d processes x %d workers, LocalComms: %v", nprocs, workers, err)
		}
	}
}
