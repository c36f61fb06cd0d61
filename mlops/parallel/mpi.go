//go:build mpi

package parallel

// #cgo pkg-config: mpi
// #include <stdlib.h>
// #include <mpi.h>
//
// // Mallard's whole use of MPI: the world communicator, in-place sums,
// // gathers, broadcasts and barriers. Each returns
// // MPI's error code.
// static int mallard_init(int *rank, int *size, int *here, int *provided) {
// 	int done = 0;
// 	MPI_Initialized(&done);
// 	if (done) return -1;
// 	int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, provided);
// 	if (rc != MPI_SUCCESS) return rc;
// 	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
// 	if ((rc = MPI_Comm_rank(MPI_COMM_WORLD, rank)) != MPI_SUCCESS) return rc;
// 	if ((rc = MPI_Comm_size(MPI_COMM_WORLD, size)) != MPI_SUCCESS) return rc;
// 	// The processes that share this one's memory: those on its machine.
// 	MPI_Comm node;
// 	rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
// 	if (rc != MPI_SUCCESS) return rc;
// 	rc = MPI_Comm_size(node, here);
// 	MPI_Comm_free(&node);
// 	return rc;
// }
// static int mallard_sum_f64(double *buf, int n) {
// 	return MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// }
// static int mallard_sum_f32(float *buf, int n) {
// 	return MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
// }
// static int mallard_allgather_f64(double *buf, int *counts, int *displs) {
// 	return MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
// }
// static int mallard_bcast(void *buf, int n, int root) {
// 	return MPI_Bcast(buf, n, MPI_BYTE, root, MPI_COMM_WORLD);
// }
// static int mallard_barrier(void) { return MPI_Barrier(MPI_COMM_WORLD); }
// static int mallard_finalize(void) { return MPI_Finalize(); }
// static void mallard_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
// static void mallard_error(int rc, char *out, int *n) {
// 	if (MPI_Error_string(rc, out, n) != MPI_SUCCESS) *n = 0;
// }
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// MPI reports whether this build has MPI (the build tag mpi).
const MPI = true

// maxCount is the most elements one MPI call takes (its count is a C int);
// longer buffers go in pieces.
const maxCount = math.MaxInt32

// Init joins the MPI job this process was started in (by mpirun, or as a
// singleton of one rank when started alone). MPI allows it once per
// process; Close ends it. Calls may come from any goroutine, one at a time
// (MPI_THREAD_SERIALIZED): Ranks makes only one of its workers talk to MPI.
func Init() (*World, error) {
	var rank, size, here, provided C.int
	rc := C.mallard_init(&rank, &size, &here, &provided)
	if rc == -1 {
		return nil, errors.New("parallel: MPI is already initialized in this process (Init is once per process)")
	}
	if rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Init_thread", rc)
	}
	if provided < C.MPI_THREAD_SERIALIZED {
		C.mallard_abort(1)
		return nil, errors.New("parallel: this MPI does not allow calls from more than one thread (MPI_THREAD_SERIALIZED)")
	}
	return &World{rank: int(rank), size: int(size), here: int(here)}, nil
}

// World is MPI's world communicator: every process of the job. It is a
// Comm and a Gatherer.
type World struct {
	rank, size int
	here       int // the processes of the job on this machine, this one included
}

// Rank is this process's rank.
func (w *World) Rank() int { return w.rank }

// Size is the number of processes in the job.
func (w *World) Size() int { return w.size }

// Here is the number of the job's processes on this machine, this one
// included (MPI_COMM_TYPE_SHARED).
func (w *World) Here() int { return w.here }

// AllReduceSum sums every process's buf into each, in place. MPI fixes the
// order of the sum by the number of processes and of values, not by when
// they arrive (Open MPI's choice of algorithm depends on nothing else).
func (w *World) AllReduceSum(buf []float64) error {
	for len(buf) > 0 {
		n := min(len(buf), maxCount)
		if rc := C.mallard_sum_f64((*C.double)(unsafe.Pointer(&buf[0])), C.int(n)); rc != C.MPI_SUCCESS {
			return mpiError("MPI_Allreduce", rc)
		}
		buf = buf[n:]
	}
	return nil
}

// AllReduceSum32 is AllReduceSum of float32 values.
func (w *World) AllReduceSum32(buf []float32) error {
	for len(buf) > 0 {
		n := min(len(buf), maxCount)
		if rc := C.mallard_sum_f32((*C.float)(unsafe.Pointer(&buf[0])), C.int(n)); rc != C.MPI_SUCCESS {
			return mpiError("MPI_Allreduce", rc)
		}
		buf = buf[n:]
	}
	return nil
}

// AllGather copies each process's part of buf into every other process's
// buf (see Gatherer).
func (w *World) AllGather(buf []float64, counts []int) error {
	const op = "MPI_Allgatherv"
	if len(counts) != w.size {
		return fmt.Errorf("parallel: %s of %d parts among %d processes", op, len(counts), w.size)
	}
	if len(buf) > maxCount {
		return fmt.Errorf("parallel: %s of %d values, more than MPI's %d", op, len(buf), maxCount)
	}
	cs, ds := make([]C.int, w.size), make([]C.int, w.size) // the parts' counts and offsets
	at := 0
	for p, n := range counts {
		if n < 0 || n > len(buf)-at {
			return fmt.Errorf("parallel: %s of parts %v of %d values", op, counts, len(buf))
		}
		cs[p], ds[p] = C.int(n), C.int(at)
		at += n
	}
	if at != len(buf) {
		return fmt.Errorf("parallel: %s of parts %v of %d values", op, counts, len(buf))
	}
	if len(buf) == 0 {
		return nil
	}
	if rc := C.mallard_allgather_f64((*C.double)(unsafe.Pointer(&buf[0])), &cs[0], &ds[0]); rc != C.MPI_SUCCESS {
		return mpiError(op, rc)
	}
	return nil
}

// Broadcast copies root's buf into every other process's buf.
func (w *World) Broadcast(buf []float64, root int) error {
	return w.BroadcastBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), 8*len(buf)), root)
}

// BroadcastBytes copies root's buf into every other process's buf.
func (w *World) BroadcastBytes(buf []byte, root int) error {
	for len(buf) > 0 {
		n := min(len(buf), maxCount)
		if rc := C.mallard_bcast(unsafe.Pointer(&buf[0]), C.int(n), C.int(root)); rc != C.MPI_SUCCESS {
			return mpiError("MPI_Bcast", rc)
		}
		buf = buf[n:]
	}
	return nil
}

// Barrier waits for every process.
func (w *World) Barrier() error {
	if rc := C.mallard_barrier(); rc != C.MPI_SUCCESS {
		return mpiError("MPI_Barrier", rc)
	}
	return nil
}

// Close leaves the job (MPI_Finalize), once every process has called it.
func (w *World) Close() error {
	if rc := C.mallard_finalize(); rc != C.MPI_SUCCESS {
		return mpiError("MPI_Finalize", rc)
	}
	return nil
}

// Abort ends every process of the job with code (MPI_Abort); it does not
// return.
func (w *World) Abort(code int) { C.mallard_abort(C.int(code)) }

func mpiError(op string, rc C.int) error {
	buf := make([]byte, C.MPI_MAX_ERROR_STRING)
	n := C.int(len(buf))
	C.mallard_error(rc, (*C.char)(unsafe.Pointer(&buf[0])), &n)
	return fmt.Errorf("parallel: %s: %s (code %d)", op, buf[:n], int(rc))
}
