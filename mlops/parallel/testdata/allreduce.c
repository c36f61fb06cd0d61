// allreduce times MPI_Allreduce of doubles, summed in place, as
// World.AllReduceSum calls it, for BenchmarkAllReduce: for each count of
// values given as an argument, after a few calls to warm up, the mean time
// of a call over the iterations that move about 256 MB (at least 20).
// Rank 0 prints "allreduce COUNT SECONDS" per count.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int a = 1; a < argc; a++) {
		long n = atol(argv[a]);
		int iters = (int)(256L * 1024 * 1024 / 8 / n);
		if (iters < 20) iters = 20;
		double *buf = malloc(n * sizeof(double));
		for (long i = 0; i < n; i++) buf[i] = rank + i;
		for (int k = 0; k < 3; k++) MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Barrier(MPI_COMM_WORLD);
		double start = MPI_Wtime();
		for (int k = 0; k < iters; k++) MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		double took = (MPI_Wtime() - start) / iters;
		if (rank == 0) printf("allreduce %ld %.9f\n", n, took);
		free(buf);
	}
	MPI_Finalize();
	return 0;
}
