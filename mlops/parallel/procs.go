package parallel

import (
	"os"
	"runtime"
)

// Processors is the GOMAXPROCS of one of here processes of a job that
// share a machine of procs processors (one process's GOMAXPROCS when it
// runs alone there), each running workers workers. A process of several
// workers gets its share of the processors, never fewer than its workers,
// never more than procs; a process of one worker keeps procs.
//
// Left at procs, a process of several workers keeps idle Ps, and the
// processes together have more Ps than the machine has processors: their
// workers' barriers spin and the Go scheduler spins threads in search of
// work, and a rank whose thread is preempted keeps every other rank
// waiting at the next all-reduce. On 16 processors (two runs) the
// recommender's epoch (BenchmarkMPIScaling's) took 0.300 s as 4 processes
// x 4 workers of GOMAXPROCS 16, 0.265 s of GOMAXPROCS 5 and 0.146 s of
// GOMAXPROCS 4, against 0.093 s as 1 x 16. A process of one worker has no
// barrier to spin at: 16 x 1 took 0.10 to 0.12 s of GOMAXPROCS 1, 2 or 16,
// and on 2 processors 2 x 1 of GOMAXPROCS 1 was slower than of 2 (the
// ranking objective's epoch by 5%, twice; presumably the spare P lets the
// garbage collector and the matrix products use the processor the other
// rank leaves idle while it waits).
func Processors(procs, here, workers int) int {
	if workers <= 1 {
		return procs
	}
	return min(procs, max(workers, procs/max(here, 1)))
}

// ShareProcessors sets this process's GOMAXPROCS to Processors of its
// current one, unless the environment sets GOMAXPROCS, and returns the
// GOMAXPROCS it runs with and the one it had. A process that trains one
// job of a collective calls it once, before its workers start.
func ShareProcessors(here, workers int) (procs, had int) {
	had = runtime.GOMAXPROCS(0)
	if os.Getenv("GOMAXPROCS") != "" {
		return had, had
	}
	procs = Processors(had, here, workers)
	if procs != had {
		runtime.GOMAXPROCS(procs)
	}
	return procs, had
}
