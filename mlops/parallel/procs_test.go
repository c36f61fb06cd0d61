package parallel_test

import (
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
