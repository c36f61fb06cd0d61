package parallel_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// run starts one goroutine per rank and waits for all of them.
func run(n int, f func(rank int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Go(func() { errs[r] = f(r) })
	}
	wg.Wait()
	return errs
}

func TestAllReduceSum(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4} {
		c := parallel.NewLocal(n)
		bufs := make([][]float64, n)
		errs := run(n, func(rank int) error {
			for round := range 50 { // reuse across rounds must not mix them up
				buf := []float64{float64(rank), float64(round), 1}
				if err := c.AllReduceSum(context.Background(), rank, buf); err != nil {
					return err
				}
				bufs[rank] = buf
				want := []float64{float64(n * (n - 1) / 2), float64(n * round), float64(n)}
				for i := range want {
					if buf[i] != want[i] {
						return errors.New("wrong sum")
					}
				}
			}
			return nil
		})
		for r, err := range errs {
			if err != nil {
				t.Errorf("n=%d rank %d: %v (buf %v)", n, r, err, bufs[r])
			}
		}
	}
}

func TestBroadcast(t *testing.T) {
	c := parallel.NewLocal(3)
	got := make([][]float64, 3)
	run(3, func(rank int) error {
		buf := []float64{float64(rank * 10)}
		err := c.Broadcast(context.Background(), rank, 2, buf)
		got[rank] = buf
		return err
	})
	for r, b := range got {
		if b[0] != 20 {
			t.Errorf("rank %d got %v, want 20", r, b)
		}
	}
}

// TestCanceledWorkerDoesNotHang checks that a worker waiting for one that
// never comes returns when its context is canceled.
func TestCanceledWorkerDoesNotHang(t *testing.T) {
	c := parallel.NewLocal(2)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := c.Barrier(ctx, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Barrier = %v, want deadline exceeded", err)
	}
}

// TestRunReturnsTheFirstError checks that a failing worker stops the
// others, blocked in a Barrier, and that Run returns its error.
func TestRunReturnsTheFirstError(t *testing.T) {
	coll := parallel.NewLocal(3)
	boom := errors.New("boom")
	err := parallel.Run(context.Background(), 3, func(ctx context.Context, rank int) error {
		if rank == 1 {
			return boom
		}
		return coll.Barrier(ctx, rank)
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Run returned %v, want boom", err)
	}
	if err := parallel.Run(context.Background(), 2, func(context.Context, int) error { return nil }); err != nil {
		t.Fatalf("Run of workers that succeed returned %v", err)
	}
}
