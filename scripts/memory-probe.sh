#!/usr/bin/env bash
# Tries each protocol path by which a client could make Mallard hold memory
# (a suspended portal read into memory, long distinct statements, many
# prepared statements, queries that run out of memory), as the read-only
# role, each against a fresh server started with --memory-limit 2GB, and
# prints the server's RSS before, its peak and its RSS 15 s after the
# session closed, beside the goal: the limit + 256 MB.
# (BenchmarkMemoryProbe in cmd/mallard; it builds the server itself.)
#
#   scripts/memory-probe.sh            every path
#   scripts/memory-probe.sh oom        the paths whose name matches oom
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -tags duckdb_arrow -count=1 -run '^$' -bench "^BenchmarkMemoryProbe$/${1:-}" -benchtime 1x ./cmd/mallard/
