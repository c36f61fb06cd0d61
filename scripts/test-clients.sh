#!/usr/bin/env bash
# Runs real clients against the real mallard binary: every testdata/psql/*.sql
# through `psql -f`, comparing the output with the .out file beside it.
# Set UPDATE=1 to rewrite the .out files (then read the diff before committing).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./bin/mallard
work=$(mktemp -d)
port=$(( 20000 + RANDOM % 20000 ))
"$bin" serve --listen "127.0.0.1:$port" --db "$work/test.duckdb" --log-level warn >"$work/server.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 100); do
  if psql -h 127.0.0.1 -p "$port" -U mallard -d mallard -Atc 'select 1' >/dev/null 2>&1; then break; fi
  sleep 0.1
done
pass=0; fail=0
for sql in testdata/psql/*.sql; do
  want="${sql%.sql}.out"
  got="$work/$(basename "$want")"
  (cd testdata/psql && PGOPTIONS= psql -X -h 127.0.0.1 -p "$port" -U mallard -d mallard \
      -v ON_ERROR_STOP=0 -f "$(basename "$sql")" >"$got" 2>&1) || true
  if [ "${UPDATE:-}" = 1 ]; then cp "$got" "$want"; fi
  if diff -u "$want" "$got"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $sql"; fi
done
# The tour a new user runs must run without a single error.
if psql -X -h 127.0.0.1 -p "$port" -U mallard -d mallard -v ON_ERROR_STOP=1 -f examples.sql >"$work/examples.out" 2>&1; then
  pass=$((pass+1))
else
  fail=$((fail+1)); echo "FAIL: examples.sql"; cat "$work/examples.out"
fi
echo "psql scripts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
