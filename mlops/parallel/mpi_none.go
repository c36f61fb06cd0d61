//go:build !mpi

package parallel

import "os"

// MPI reports whether this build has MPI (the build tag mpi).
const MPI = false

// Init returns the world of a build without MPI: this process alone, rank
// 0 of 1, whose operations have nothing to exchange.
func Init() (*World, error) { return &World{}, nil }

// World is, without MPI, the one process. It is a Comm.
type World struct{}

// Rank is 0.
func (*World) Rank() int { return 0 }

// Size is 1.
func (*World) Size() int { return 1 }

// Here is 1: this process alone is on this machine.
func (*World) Here() int { return 1 }

// AllReduceSum leaves buf as it is: the sum over one process.
func (*World) AllReduceSum([]float64) error { return nil }

// AllReduceSum32 leaves buf as it is.
func (*World) AllReduceSum32([]float32) error { return nil }

// AllGather leaves buf as it is: the one process's part is all of it.
func (*World) AllGather([]float64, []int) error { return nil }

// Broadcast leaves buf as it is.
func (*World) Broadcast([]float64, int) error { return nil }

// BroadcastBytes leaves buf as it is.
func (*World) BroadcastBytes([]byte, int) error { return nil }

// Barrier returns at once.
func (*World) Barrier() error { return nil }

// Close does nothing.
func (*World) Close() error { return nil }

// Abort exits the process with code.
func (*World) Abort(code int) { os.Exit(code) }
