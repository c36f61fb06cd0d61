#!/usr/bin/env bash
# mpi-bench-bundle.sh DIR packs the MPI benchmarks for a Linux x86-64
# machine that has neither Go nor Open MPI (a machine of many processors
# lent for minutes): it builds bin/mallard-mpi, the test binaries of
# BenchmarkMPIScaling and BenchmarkAllReduce and the C loop of
# MPI_Allreduce, copies them with this machine's Open MPI (Debian's
# packages) and every library they load into a root file system, and
# writes DIR/root.tar.xz and DIR/run.sh. There, as root, `DIR/run.sh OUT`
# unpacks the root, binds /proc, /sys and /dev into it and runs both
# benchmarks in it by chroot, writing their tables to OUT:
# MPI_BENCH_SHAPES (default 1x1,1x2,1x4,1x8,1x16,2x8,4x4,8x2,16x1),
# MPI_BENCH_MODELS, MPI_BENCH_ROUNDS (default 2) and ALLREDUCE_RANKS
# (default "2 4 8 16"; empty for none) pick what runs.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/mpi-bench-bundle.sh DIR" >&2; exit 2; }
out=$(realpath -m "$1")
cd "$(dirname "$0")/.."
GO=${GO:-go}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$out" "$root"/{bench,tmp,proc,sys,dev,etc,root,usr/bin,usr/lib,usr/lib64,usr/sbin}
for d in lib bin sbin lib64; do ln -s usr/$d "$root/$d"; done
make build-mpi >/dev/null
cp bin/mallard-mpi "$root/bench/"
$GO test -c -tags=duckdb_arrow,mpi -o "$root/bench/job.test" ./mlops/job/
$GO test -c -tags=duckdb_arrow,mpi -o "$root/bench/parallel.test" ./mlops/parallel/
mpicc -O2 -o "$root/bench/allreduce" mlops/parallel/testdata/allreduce.c
strip "$root"/bench/*

# copy PATH into the root, with what a link points to.
copy() {
  [ -e "$root$1" ] || [ -L "$root$1" ] && return 0
  mkdir -p "$root$(dirname "$1")"
  cp -a "$1" "$root$1"
  if [ -L "$1" ]; then copy "$(readlink -f "$1")"; fi
}
for p in libopenmpi3 openmpi-bin openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 \
  libfabric1 libucx0 libibverbs1 librdmacm1 libpsm2-2 libnl-3-200 libnl-route-3-200 libltdl7 libnuma1; do
  dpkg -L "$p" 2>/dev/null || true
done | grep -v -e /share/doc -e /share/man -e /share/lintian | sort -u | while read -r f; do
  if [ -f "$f" ] || [ -L "$f" ]; then copy "$f"; fi
done
find "$root" -type f -print0 | while IFS= read -r -d '' f; do
  ldd "$f" 2>/dev/null | awk '/=>/ && $3 ~ /^\// {print $3} /^\t\/lib64/ {print $1}' || true
done | sort -u | while read -r f; do copy "$f"; done
copy /lib64/ld-linux-x86-64.so.2
cp /usr/bin/false "$root/usr/bin/"
ln -sf orterun "$root/usr/bin/mpirun"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"
tar -C "$root" -cf - . | xz -6 -T0 >"$out/root.tar.xz"

cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# run.sh OUT: see scripts/mpi-bench-bundle.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUT}
mkdir -p "$out"
r=$(mktemp -d)
echo "host: $(nproc) processors, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
tar -xJf "$here/root.tar.xz" -C "$r" 2>/dev/null ||
  python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter='fully_trusted')" "$here/root.tar.xz" "$r"
for d in proc sys dev; do mount --bind "/$d" "$r/$d"; done
trap 'umount "$r/proc" "$r/sys" "$r/dev" && rm -rf "$r"' EXIT
ch=$(command -v chroot)
env=(env -i PATH=/usr/bin HOME=/root TMPDIR=/tmp OMPI_MCA_plm_rsh_agent=/usr/bin/false
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
[ -n "${GOMAXPROCS:-}" ] && env+=(GOMAXPROCS="$GOMAXPROCS")
"${env[@]}" MALLARD_MPI_BIN=/bench/mallard-mpi MPI_BENCH_ROUNDS="${MPI_BENCH_ROUNDS:-2}" \
  MPI_BENCH_MODELS="${MPI_BENCH_MODELS:-gat,recommender,ranking}" \
  MPI_BENCH_SHAPES="${MPI_BENCH_SHAPES:-1x1,1x2,1x4,1x8,1x16,2x8,4x4,8x2,16x1}" \
  "$ch" "$r" /bench/job.test -test.run '^$' -test.bench '^BenchmarkMPIScaling$' -test.benchtime 1x -test.timeout 60m |
  grep -v -e '^goos:' -e '^goarch:' -e '^pkg:' -e '^cpu:' -e '^Benchmark' -e '^PASS' | tee "$out/scaling.txt"
for n in ${ALLREDUCE_RANKS-2 4 8 16}; do
  "${env[@]}" MPI_BENCH_RANKS="$n" MPI_BENCH_C=/bench/allreduce \
    "$ch" "$r" /bench/parallel.test -test.run '^$' -test.bench '^BenchmarkAllReduce$' -test.benchtime 1x |
    grep -v -e '^goos:' -e '^goarch:' -e '^pkg:' -e '^cpu:' -e '^Benchmark' -e '^PASS' | tee -a "$out/allreduce.txt"
done
RUN
chmod +x "$out/run.sh"
ls -l "$out"
