#!/usr/bin/env bash
# Runs pgbench's built-in select-only and tpcb-like scripts against Mallard
# (./bin/mallard, a fresh database file) and against PostgreSQL 15 in the
# same run, at the same scale, with the same clients and length, and prints
# each TPS and the ratio Mallard / PostgreSQL. Exits non-zero if pgbench
# reports an error or a failed transaction on either server.
#
#   PGBENCH_SCALE=1      pgbench -i -s
#   PGBENCH_SECONDS=10   length of each run (-T)
#   PGBENCH_CLIENTS=1    clients (-c); tpcb-like's updates of one branch row
#                        conflict in DuckDB with more than one client
#   PG_BIN               PostgreSQL 15 programs (/usr/lib/postgresql/15/bin)
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${PGBENCH_SCALE:-1}
seconds=${PGBENCH_SECONDS:-10}
clients=${PGBENCH_CLIENTS:-1}
pgbin=${PG_BIN:-/usr/lib/postgresql/15/bin}
[ -x ./bin/mallard ] || { echo "pgbench-compare: ./bin/mallard is missing; run make build" >&2; exit 1; }

if [ -z "${MALLARD_TEST_POSTGRES:-}" ]; then
  exec ./scripts/with-postgres.sh "$0" "$@"
fi
dir=$(mktemp -d /tmp/mallard-pgbench.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
./bin/mallard serve -db "$dir/bench.duckdb" -listen "127.0.0.1:$port" -http '' >"$dir/mallard.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do
  "$pgbin/pg_isready" -q -h 127.0.0.1 -p "$port" && break
  sleep 0.2
done
mallard="host=127.0.0.1 port=$port user=mallard dbname=mallard sslmode=disable"
postgres=$MALLARD_TEST_POSTGRES

tps() { # target script
  local out
  out=$("$pgbin/pgbench" -n -b "$2" -T "$seconds" -c "$clients" -j "$clients" "$1" 2>&1) || { echo "$out" >&2; return 1; }
  grep -q 'number of failed transactions: 0 ' <<<"$out" || { echo "$out" >&2; return 1; }
  sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out"
}

echo "pgbench -s $scale, $clients client(s), $seconds s per run, $(nproc) cores"
for target in "$mallard" "$postgres"; do
  "$pgbin/pgbench" -i -q -s "$scale" "$target" >"$dir/init.log" 2>&1 || { cat "$dir/init.log" >&2; exit 1; }
done
printf '%-12s %12s %12s %8s\n' script Mallard PostgreSQL ratio
for script in select-only tpcb-like; do
  m=$(tps "$mallard" "$script")
  p=$(tps "$postgres" "$script")
  printf '%-12s %12.0f %12.0f %8.3f\n' "$script" "$m" "$p" "$(python3 -c "print($m / $p)")"
done
