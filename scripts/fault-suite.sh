#!/usr/bin/env bash
# The long fault-injection suite: kills the real server with SIGKILL at
# random instants during COPY, transactions, training and backups, FAULTS
# times (200 by default), restarting it on the same files and checking
# every acknowledged commit, the registry and every backup after each
# restart (see cmd/mallard/faultsuite_test.go; make test runs 4). Prints
# the counts: faults injected, commits checked, commits lost (must be 0),
# backups checked, escapes tried and refused. SEED picks the instants.
set -euo pipefail
cd "$(dirname "$0")/.."
faults=${FAULTS:-200}
seed=${SEED:-$RANDOM}
go test -v -tags duckdb_arrow -count=1 -timeout 120m -run '^TestFaultSuite$' ./cmd/mallard/ -args -faults "$faults" -fault-seed "$seed" |
  grep -E '^(fault suite:|--- FAIL|FAIL|ok|\s+faultsuite_test)' 
