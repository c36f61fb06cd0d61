//go:build !mpi

package job_test

import "testing"

// TestMPI stands for the tests that run ranks under mpirun (mpi_test.go),
// which need a build with the tag mpi: make test-mpi runs them.
func TestMPI(t *testing.T) {
	t.Skip("built without the mpi tag: run make test-mpi (needs libopenmpi-dev and openmpi-bin)")
}
