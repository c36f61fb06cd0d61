#!/usr/bin/env bash
# allreduce-bench.sh prints the time of one all-reduce of float64s across
# MPI_BENCH_RANKS ranks (2 by default) through Mallard's MPI wrapper
# (World.AllReduceSum, over cgo) and through a C loop of MPI_Allreduce,
# for a few sizes, their ratio and the wrapper's bandwidth (see
# BenchmarkAllReduce in mlops/parallel/mpi_bench_test.go). Needs
# libopenmpi-dev and openmpi-bin.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
echo "host: $(nproc) processors, $(mpirun --version | head -1)"
$GO test -tags=duckdb_arrow,mpi -run '^$' -bench '^BenchmarkAllReduce$' -benchtime 1x -timeout 30m ./mlops/parallel/ |
  grep -v -e '^goos:' -e '^goarch:' -e '^pkg:' -e '^cpu:' -e '^BenchmarkAllReduce' -e '^PASS' -e '^ok'
