#!/usr/bin/env bash
# Measures Mallard (./bin/mallard, built by `make bench`) against baselines
# taken in the same run: PostgreSQL 15 serving the same table over loopback
# TCP, and duckdb-go reading the same database file in-process. Then
# measures Mallard's pivot_entity_time and rescale on the flights data set
# against DuckDB SQL computing the same tables (bench prep; it needs only
# ./bin/mallard), then GAT training with one worker and with two
# (bench train, in-process), and last the SQL recommender: one epoch of
# train_recommender with one worker and with two, each in a fresh Mallard
# server, and recommend's latency, on synthetic ratings shaped like
# MovieLens-25M (bench recommender). Prints the figures and their ratios against
# the goals; exits 0 when a goal is missed and non-zero on real errors
# (wrong row counts, tables that disagree, connection failures).
#
#   BENCH_ROWS=10000000    rows streamed and copied (BENCH_ROWS=200000 for a smoke run)
#   BENCH_RUNS=3           measured rounds after one warm-up round; medians are reported (also for prep and train)
#   BENCH_QPS_SECONDS      length of one QPS run (10, or 2 when BENCH_ROWS < 1000000)
#   BENCH_REC_SCALE=1      fraction of MovieLens-25M's 162,541 users, 62,423 items and 25M ratings that
#                          bench recommender generates (BENCH_REC_SCALE=0.02 for a smoke run); the
#                          database is kept in ${TMPDIR:-/tmp} per shape, so later runs skip generating it
#   BENCH_REC_RUNS=1       rounds of bench recommender's two training runs (an epoch at full scale takes minutes)
#   BENCH_ONLY=wire        stop after the wire figures (stream, QPS, COPY), skipping prep, train and recommender
#   PG_BIN                 PostgreSQL 15 programs (/usr/lib/postgresql/15/bin)
set -euo pipefail
cd "$(dirname "$0")/.."

rows=${BENCH_ROWS:-10000000}
runs=${BENCH_RUNS:-3}
rec_scale=${BENCH_REC_SCALE:-1}
rec_runs=${BENCH_REC_RUNS:-1}
if [ "$rows" -ge 1000000 ]; then qps_s=${BENCH_QPS_SECONDS:-10}; else qps_s=${BENCH_QPS_SECONDS:-2}; fi
qps_warm=1
pgbin=${PG_BIN:-/usr/lib/postgresql/15/bin}
mallard=./bin/mallard
clients=8
pgsettings=(shared_buffers=1GB fsync=off synchronous_commit=off full_page_writes=off
  max_wal_size=8GB checkpoint_timeout=30min)

[ -x "$mallard" ] || { echo "bench: $mallard is missing; run make build" >&2; exit 1; }
[ -x "$pgbin/postgres" ] || { echo "bench: no PostgreSQL in $pgbin; run scripts/install-deps.sh" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mallard-bench.XXXXXX")
chmod 755 "$work" # the postgres user must reach its data directory inside
pgdata=$work/pg
pg_started=

# as_pg runs a PostgreSQL program as the postgres user when we are root,
# since PostgreSQL refuses to run as root.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cleanup() {
  local rc=$?
  if [ -n "$pg_started" ]; then
    as_pg "$pgbin/pg_ctl" -D "$pgdata" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ "$rc" -ne 0 ]; then
    echo "bench: failed (exit $rc)" >&2
    for f in "$work/mallard.log" "$pgdata/log"; do
      if [ -s "$f" ]; then echo "-- last lines of $f:" >&2; tail -n 20 "$f" >&2; fi
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== building the bench program"
go build -tags duckdb_arrow -o "$work/bench" ./bench
bench=$work/bench
common=(-rows "$rows" -runs "$runs" -results "$work/results.json")

echo "== starting PostgreSQL 15 ($pgbin)"
mkdir "$pgdata"
[ "$(id -u)" -ne 0 ] || chown postgres:postgres "$pgdata"
as_pg "$pgbin/initdb" -D "$pgdata" -A trust -U postgres -E UTF8 --no-locale --no-sync >"$work/initdb.log" 2>&1
pgport=$("$bench" freeport)
pgopts="-p $pgport -c listen_addresses=127.0.0.1 -c unix_socket_directories=$pgdata"
for s in "${pgsettings[@]}"; do pgopts+=" -c $s"; done
pg_started=1
as_pg "$pgbin/pg_ctl" -D "$pgdata" -l "$pgdata/log" -w -o "$pgopts" start >/dev/null
pgdsn="host=127.0.0.1 port=$pgport user=postgres dbname=postgres sslmode=disable"
"$bench" wait -pg "$pgdsn"

# bench run starts and stops Mallard itself: the in-process baselines open
# the same database file, which DuckDB locks per process.
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
"$bench" run -pg "$pgdsn" -mallard-bin "$mallard" -mallard-log "$work/mallard.log" \
  -db "$work/mallard.duckdb" -clients "$clients" -duration "${qps_s}s" -warmup "${qps_warm}s" "${common[@]}"
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

dirty=
[ -z "$(git status --porcelain 2>/dev/null)" ] || dirty=" (working tree has uncommitted changes)"
echo
echo "== summary"
echo "commit:     $(git rev-parse --short HEAD)$dirty"
echo "go:         $(go env GOVERSION), nproc $(nproc), $(uname -sm)"
echo "host load:  1/5/15-min load average $load_start at start, $load_end at end"
echo "mallard:    $("$mallard" version), default settings"
echo "postgresql: $("$pgbin/postgres" --version), settings: ${pgsettings[*]}"
echo "            (fsync and synchronous_commit off speed up its COPY: a stricter baseline)"
echo "clients:    pgx v5 over TCP 127.0.0.1, sslmode=disable, default QueryExecModeCacheStatement;"
echo "            the stream also through pgconn (each value's bytes) and from a replay of Mallard's bytes"
echo "method:     $rows rows; one warm-up round, then $runs rounds each measuring everything once"
echo "            (PostgreSQL and Mallard back to back, order alternating; Mallard restarted"
echo "            around the in-process measurements); medians of the $runs rounds"
echo "            QPS: $clients clients, ${qps_warm}s warm-up on fresh connections, then ${qps_s}s"
echo "            COPY input: generated on the fly (text format, cheap hash for the text column)"
echo
"$bench" report "${common[@]}"
[ "${BENCH_ONLY:-}" != wire ] || exit 0

echo
"$bench" prep -mallard-bin "$mallard" -mallard-log "$work/mallard.log" -runs "$runs"

echo
# bench train times gat.Train in-process, one worker against two, and an
# epoch against gonum's dgemm rate; it needs neither server.
"$bench" train -runs "$runs"

echo
# bench recommender generates its ratings once per shape into a database in
# the temp directory (outside $work, so later runs reuse it), then trains
# each configuration in a Mallard server of its own, on a fresh copy, so
# that the server's peak resident set measures that training alone.
"$bench" recommender -mallard-bin "$mallard" -mallard-log "$work/mallard.log" -rec-scale "$rec_scale" -rec-runs "$rec_runs"
