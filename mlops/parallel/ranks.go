package parallel

import (
	"context"
	"fmt"
	"time"
)

// Comm is the processes' side of a Ranks collective: one call per process
// at a time, every process calling each operation in the same order, as an
// MPI communicator requires. Its operations cannot be canceled: a process
// blocked in one returns when the others arrive, or is ended with them
// when one of them fails (MPI's model: see World).
type Comm interface {
	// Rank is this process's rank, 0..Size-1.
	Rank() int
	// Size is the number of processes.
	Size() int
	// AllReduceSum replaces buf with the elementwise sum of every process's
	// buf, the same on every process and on every run.
	AllReduceSum(buf []float64) error
	// Broadcast copies root's buf into every other process's buf.
	Broadcast(buf []float64, root int) error
	// Barrier waits for every process.
	Barrier() error
}

// Ranks is a Collective of workers spread over processes: each of
// comm.Size() processes runs workers goroutines, and the worker of local
// index i in process p has rank p·workers+i. Inside a process the workers
// meet as Local's do; the lowest of them alone talks to the other
// processes. An all-reduce so sums the process's workers' buffers in rank
// order first, then the processes' sums through comm: the order of every
// sum is fixed by the ranks, never by timing, and every worker of every
// process gets the same bits.
type Ranks struct {
	comm    Comm
	workers int
	local   *Local // the goroutines of this process, by local index
	err     error  // the last cross-process error, read after the second barrier
	// reducing is the time spent in comm.AllReduceSum, written by the
	// lowest local worker only.
	reducing time.Duration
}

// NewRanks returns the Collective of workers goroutines in each of comm's
// processes.
func NewRanks(comm Comm, workers int) *Ranks {
	return &Ranks{comm: comm, workers: workers, local: NewLocal(workers)}
}

// Size is the number of workers in every process together.
func (r *Ranks) Size() int { return r.comm.Size() * r.workers }

// Locals are the ranks of the workers that run in this process: first,
// first+1, ..., first+n-1.
func (r *Ranks) Locals() (first, n int) { return r.comm.Rank() * r.workers, r.workers }

// AllReduceSum sums every worker's buf into each buf: this process's
// workers' in rank order, then the processes' sums.
func (r *Ranks) AllReduceSum(ctx context.Context, rank int, buf []float64) error {
	return r.reduce(ctx, rank, buf, r.comm.AllReduceSum)
}

// Gatherer is a Comm that can also gather parts. The parts of a buffer
// are consecutive, one per process in rank order, process p's of
// counts[p] values; every process passes the same counts.
type Gatherer interface {
	// AllGather copies each process's part of buf into every other
	// process's buf.
	AllGather(buf []float64, counts []int) error
}

// AllGather hands every worker each process's part of buf (see Gatherer;
// counts are by process), which is the sum of the process's workers' bufs
// there: each worker writes its own values of the part, and zeros where
// another worker of its process writes. Over a Comm that is no Gatherer,
// each process broadcasts its part.
func (r *Ranks) AllGather(ctx context.Context, rank int, buf []float64, counts []int) error {
	if len(counts) != r.comm.Size() {
		panic(fmt.Sprintf("parallel: AllGather of %d parts among %d processes", len(counts), r.comm.Size()))
	}
	cross := func(b []float64) error {
		at := 0
		for p, n := range counts {
			if err := r.comm.Broadcast(b[at:at+n], p); err != nil {
				return err
			}
			at += n
		}
		return nil
	}
	if s, ok := r.comm.(Gatherer); ok {
		cross = func(b []float64) error { return s.AllGather(b, counts) }
	}
	return r.reduce(ctx, rank, buf, cross)
}

// reduce sums this process's workers' bufs in rank order, runs cross on
// the sum and hands every worker the result. A process of one worker runs
// cross on its buf in place, without the meeting and copies.
func (r *Ranks) reduce(ctx context.Context, rank int, buf []float64, cross func([]float64) error) error {
	if r.workers == 1 {
		if first, _ := r.Locals(); rank != first {
			panic(fmt.Sprintf("parallel: rank %d is not this process's %d", rank, first))
		}
		start := time.Now()
		err := cross(buf)
		r.reducing += time.Since(start)
		return err
	}
	return r.joint(ctx, rank, buf, func() error {
		l := r.local
		l.result = append(l.result[:0], l.bufs[0]...)
		for i := 1; i < l.n; i++ {
			if len(l.bufs[i]) != len(l.result) {
				panic(fmt.Sprintf("parallel: a reduction of %d values and of %d", len(l.result), len(l.bufs[i])))
			}
			for j, v := range l.bufs[i] {
				l.result[j] += v
			}
		}
		start := time.Now()
		err := cross(l.result)
		r.reducing += time.Since(start)
		return err
	})
}

// Reducing is the time this process has spent in the processes'
// all-reduce, waiting for the others included. Read it once the workers
// have returned.
func (r *Ranks) Reducing() time.Duration { return r.reducing }

// Broadcast copies root's buf into every worker's buf.
func (r *Ranks) Broadcast(ctx context.Context, rank, root int, buf []float64) error {
	return r.joint(ctx, rank, buf, func() error {
		l := r.local
		first, _ := r.Locals()
		from := root / r.workers
		if from == r.comm.Rank() {
			l.result = append(l.result[:0], l.bufs[root-first]...)
		} else {
			l.result = append(l.result[:0], l.bufs[0]...)
		}
		return r.comm.Broadcast(l.result, from)
	})
}

// Barrier waits for every worker of every process.
func (r *Ranks) Barrier(ctx context.Context, rank int) error {
	return r.joint(ctx, rank, nil, r.comm.Barrier)
}

// joint runs one operation: the process's workers post their buffers and
// meet, the lowest of them runs cross (which leaves the result in
// local.result), they meet again and each copies the result into its buf.
// The copy needs no third barrier, for the reason Local.AllReduceSum gives.
func (r *Ranks) joint(ctx context.Context, rank int, buf []float64, cross func() error) error {
	first, _ := r.Locals()
	i := rank - first
	if i < 0 || i >= r.workers {
		panic(fmt.Sprintf("parallel: rank %d is not one of this process's %d..%d", rank, first, first+r.workers-1))
	}
	l := r.local
	l.post(i, buf)
	if err := l.barrier.wait(ctx); err != nil {
		return err
	}
	if i == 0 {
		r.err = cross()
	}
	if err := l.barrier.wait(ctx); err != nil {
		return err
	}
	if r.err != nil {
		return r.err
	}
	copy(buf, l.result)
	return nil
}

// Locals are the ranks of c's workers that run in this process: all of
// them for a Collective that does not say otherwise.
func Locals(c Collective) (first, n int) {
	if s, ok := c.(interface{ Locals() (int, int) }); ok {
		return s.Locals()
	}
	return 0, c.Size()
}

// RunLocals runs work for every rank of c that runs in this process, as
// Run does.
func RunLocals(ctx context.Context, c Collective, work func(ctx context.Context, rank int) error) error {
	first, n := Locals(c)
	return Run(ctx, n, func(ctx context.Context, i int) error { return work(ctx, first+i) })
}

// LocalComms returns n Comms, Gatherers too, that join goroutines of
// this process as if each were a process of its own, the i-th of rank i:
// code that spans processes runs on them without MPI, in tests.
func LocalComms(n int) []Comm {
	all := NewLocal(n)
	comms := make([]Comm, n)
	for i := range comms {
		comms[i] = &localComm{rank: i, all: all}
	}
	return comms
}

// localComm is one of LocalComms.
type localComm struct {
	rank int
	all  *Local
}

func (c *localComm) Rank() int { return c.rank }
func (c *localComm) Size() int { return c.all.Size() }
func (c *localComm) AllReduceSum(buf []float64) error {
	return c.all.AllReduceSum(context.Background(), c.rank, buf)
}
func (c *localComm) Broadcast(buf []float64, root int) error {
	return c.all.Broadcast(context.Background(), c.rank, root, buf)
}
func (c *localComm) Barrier() error { return c.all.Barrier(context.Background(), c.rank) }

// AllGather broadcasts each process's part from it.
func (c *localComm) AllGather(buf []float64, counts []int) error {
	at := 0
	for p, n := range counts {
		if err := c.Broadcast(buf[at:at+n], p); err != nil {
			return err
		}
		at += n
	}
	return nil
}
