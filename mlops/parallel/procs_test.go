package parallel_test

import (
	"runtime"
	"testing"

	"github.com/mallard/mallard/mlops/parallel"
)

func TestProcessors(t *testing.T) {
	for _, tc := range []struct{ procs, here, workers, want int }{
		{16, 1, 4, 16}, // alone on the machine: as it was
		{16, 4, 4, 4},
		{16, 2, 8, 8},
		{16, 3, 2, 5},   // a share rounded down
		{16, 4, 8, 8},   // never fewer than its workers
		{2, 3, 2, 2},    // oversubscribed: its workers
		{2, 1, 4, 2},    // more workers than processors: as it was
		{16, 0, 2, 16},  // no count: alone
		{16, 16, 1, 16}, // one worker: as it was
		{2, 2, 1, 2},
	} {
		if got := parallel.Processors(tc.procs, tc.here, tc.workers); got != tc.want {
			t.Errorf("Processors(%d, %d, %d) = %d, want %d", tc.procs, tc.here, tc.workers, got, tc.want)
		}
	}
}

// TestShareProcessors checks that ShareProcessors sets GOMAXPROCS to
// Processors of the one it finds, and leaves one set in the environment.
func TestShareProcessors(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "")
	runtime.GOMAXPROCS(16)
	if procs, had := parallel.ShareProcessors(4, 2); procs != 4 || had != 16 || runtime.GOMAXPROCS(0) != 4 {
		t.Errorf("ShareProcessors(4, 2) of 16 = %d, %d; GOMAXPROCS %d; want 4, 16; 4", procs, had, runtime.GOMAXPROCS(0))
	}
	runtime.GOMAXPROCS(16)
	if procs, had := parallel.ShareProcessors(4, 1); procs != 16 || had != 16 || runtime.GOMAXPROCS(0) != 16 {
		t.Errorf("ShareProcessors(4, 1) of 16 = %d, %d; GOMAXPROCS %d; want 16, 16; 16", procs, had, runtime.GOMAXPROCS(0))
	}
	t.Setenv("GOMAXPROCS", "16")
	if procs, had := parallel.ShareProcessors(4, 2); procs != 16 || had != 16 || runtime.GOMAXPROCS(0) != 16 {
		t.Errorf("ShareProcessors(4, 2) with GOMAXPROCS=16 set = %d, %d; GOMAXPROCS %d; want it left at 16", procs, had, runtime.GOMAXPROCS(0))
	}
}
