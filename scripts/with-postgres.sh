#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL 15 beside it, for the tests that
# compare Mallard with real Postgres. The command sees MALLARD_TEST_POSTGRES,
# a libpq connection string. PostgreSQL refuses to run as root, so as root the
# server runs as the postgres user that Debian's package creates.
set -euo pipefail
bindir=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/mallard-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
as_pg "$bindir/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log"; exit 1; }
as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
stop() { as_pg "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
export MALLARD_TEST_POSTGRES="host=127.0.0.1 port=$port user=postgres dbname=postgres sslmode=disable"
"$@"
