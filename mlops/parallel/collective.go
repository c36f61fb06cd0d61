// Package parallel is Mallard's synchronous data parallelism: workers each
// compute gradients on their share of a mini-batch, combine them through a
// Collective, and take the same optimiser step, as Horovod and PyTorch's
// DistributedDataParallel do. Local joins goroutines; Ranks joins the
// goroutines of several processes, which meet through a Comm: MPI's world
// (World, with the build tag mpi) or, in tests, LocalComms.
package parallel

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Collective is what data-parallel workers use to agree. Every worker
// (rank 0..Size-1) calls each operation in the same order; an operation
// returns once all workers have called it, or with ctx's error.
type Collective interface {
	// Size is the number of workers.
	Size() int
	// AllReduceSum replaces buf with the elementwise sum of every worker's
	// buf. The sum is taken in rank order, so it is the same on every run.
	AllReduceSum(ctx context.Context, rank int, buf []float64) error
	// Broadcast copies root's buf into every other worker's buf.
	Broadcast(ctx context.Context, rank, root int, buf []float64) error
	// Barrier waits for every worker.
	Barrier(ctx context.Context, rank int) error
}

// Local is a Collective of goroutines in one process.
type Local struct {
	n       int
	barrier barrier
	mu      sync.Mutex
	bufs    [][]float64 // each rank's buffer during an operation
	result  []float64
}

// NewLocal returns a Collective for n goroutines.
func NewLocal(n int) *Local {
	if n < 1 {
		panic(fmt.Sprintf("parallel: %d workers", n))
	}
	return &Local{n: n, barrier: barrier{n: n, gen: make(chan struct{})}, bufs: make([][]float64, n)}
}

// Size is the number of workers.
func (l *Local) Size() int { return l.n }

// AllReduceSum sums every worker's buf into each buf, in rank order.
func (l *Local) AllReduceSum(ctx context.Context, rank int, buf []float64) error {
	if l.n == 1 {
		return nil
	}
	l.post(rank, buf)
	if err := l.barrier.wait(ctx); err != nil {
		return err
	}
	if rank == 0 {
		l.result = append(l.result[:0], l.bufs[0]...)
		for r := 1; r < l.n; r++ {
			if len(l.bufs[r]) != len(l.result) {
				panic(fmt.Sprintf("parallel: AllReduceSum of %d values on rank 0 and %d on rank %d", len(l.result), len(l.bufs[r]), r))
			}
			for i, v := range l.bufs[r] {
				l.result[i] += v
			}
		}
	}
	if err := l.barrier.wait(ctx); err != nil {
		return err
	}
	// No barrier after the copy: the next operation's first barrier, which
	// rank 0 must pass before it writes l.result again, waits for every
	// rank to have copied, and nothing reads l.bufs after the second one.
	copy(buf, l.result)
	return nil
}

// Broadcast copies root's buf into every worker's buf.
func (l *Local) Broadcast(ctx context.Context, rank, root int, buf []float64) error {
	if l.n == 1 {
		return nil
	}
	l.post(rank, buf)
	if err := l.barrier.wait(ctx); err != nil {
		return err
	}
	if rank != root {
		copy(buf, l.bufs[root])
	}
	return l.barrier.wait(ctx)
}

// Barrier waits for every worker.
func (l *Local) Barrier(ctx context.Context, rank int) error { return l.barrier.wait(ctx) }

func (l *Local) post(rank int, buf []float64) {
	l.mu.Lock()
	l.bufs[rank] = buf
	l.mu.Unlock()
}

// barrier is a reusable rendezvous of n goroutines: each generation's
// channel is closed when the last one arrives. One that arrives early
// spins (see spinFor) before it blocks on the channel.
type barrier struct {
	mu     sync.Mutex
	n      int
	count  int
	gen    chan struct{}
	passed atomic.Uint64 // the number of generations completed
}

// spinFor is how long a goroutine that reaches a barrier before the others
// watches for them before it blocks. A blocked goroutine wakes late: the
// last to arrive readies it on its own processor, from which an idle one
// (whose thread, and on a virtual machine whose virtual CPU, has gone to
// sleep) must steal it. On a 2-core virtual machine each barrier of two
// goroutines so cost 50 to 300 µs, against the few milliseconds between
// the barriers of a training step: spinning, two workers trained a
// recommender's epoch 4% faster. The waiter yields as it spins, so that
// other goroutines on its processor can run, spins only when every party
// can have a processor of its own, and gives up after spinFor, so that a
// long wait costs no more processor time than that.
const spinFor = time.Millisecond

func (b *barrier) wait(ctx context.Context) error {
	b.mu.Lock()
	ch, gen := b.gen, b.passed.Load()
	b.count++
	if b.count == b.n {
		b.count, b.gen = 0, make(chan struct{})
		b.passed.Add(1)
		b.mu.Unlock()
		close(ch)
		return nil
	}
	b.mu.Unlock()
	if b.n <= runtime.GOMAXPROCS(0) {
		for start := time.Now(); time.Since(start) < spinFor; runtime.Gosched() {
			if b.passed.Load() != gen {
				return nil
			}
		}
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
