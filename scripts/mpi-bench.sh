#!/usr/bin/env bash
# mpi-bench.sh prints, for the GAT and the recommender, the epoch time of
# `mallard train-worker` as 1 rank x 1 worker and as 2 ranks x 1 worker
# under mpirun on this machine, their ratio, and the share of the 2-rank
# run spent in the all-reduce across ranks (see BenchmarkMPIScaling in
# mlops/job/mpi_bench_test.go). Needs libopenmpi-dev and openmpi-bin.
# MPI_BENCH_ROUNDS (default 3) sets how many interleaved runs of each the
# medians are over; MPI_BENCH_MODELS picks the models, comma-separated
# (gat; gat-shard: the GAT job sharded by sample, as train_gat's ranks
# exports it; recommender; ranking: the recommender's ranking objective;
# all but ranking by default); MPI_BENCH_BASELINE=PATH[:PATH...]
# interleaves the runs of other mallard binaries built with MPI (make
# build-mpi at an earlier commit, of the same version) and prints their
# figures as well, marked [file name].
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
echo "host: $(nproc) processors, $(mpirun --version | head -1)"
$GO test -tags=duckdb_arrow,mpi -run '^$' -bench '^BenchmarkMPIScaling$' -benchtime 1x -timeout 60m ./mlops/job/ |
  grep -v -e '^goos:' -e '^goarch:' -e '^pkg:' -e '^cpu:' -e '^BenchmarkMPIScaling' -e '^PASS' -e '^ok'
