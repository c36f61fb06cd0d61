#!/usr/bin/env bash
# Installs the programs Mallard's tests drive (psql and a PostgreSQL 15 server
# for comparisons, the real clients, pgcli and the tmux that drives it,
# headless Chromium for the dashboard, Open MPI for the scale-out tests, R's forecast package as the reference of
# the forecasting methods, R's dslabs package, whose movielens data set
# scripts/movielens.R writes as MovieLens small), from Debian packages, when
# they are missing; and SQLAlchemy 2 unpacked into .deps/python (see below).
set -euo pipefail
need=()
command -v psql >/dev/null 2>&1 || need+=(postgresql-client)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need+=(postgresql)
[ -r /usr/share/java/postgresql.jar ] || need+=(libpostgresql-jdbc-java)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pgcli >/dev/null 2>&1 || need+=(pgcli)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin libopenmpi-dev)
Rscript -e 'library(forecast)' >/dev/null 2>&1 || need+=(r-base-core r-cran-forecast)
Rscript -e 'library(dslabs)' >/dev/null 2>&1 || need+=(r-base-core r-cran-dslabs)
for m in psycopg2:python3-psycopg2 psycopg:python3-psycopg sqlalchemy:python3-sqlalchemy pandas:python3-pandas; do
  /usr/bin/python3 -c "import ${m%%:*}" >/dev/null 2>&1 || need+=("${m#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "missing: ${need[*]} (install them with your package manager)" >&2
    exit 1
  fi
  echo "installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# SQLAlchemy 2, whose psycopg 3 dialect the sqlalchemy2 client tests:
# Debian bookworm ships 1.4, so take Debian trixie's pure-Python package and
# the typing_extensions it needs, unpacked (not installed) into
# .deps/python, which only that client puts on its PYTHONPATH.
root=$(cd "$(dirname "$0")/.." && pwd)
sa2="$root/.deps/python"
if ! PYTHONPATH="$sa2" /usr/bin/python3 -c 'import sys, sqlalchemy; sys.exit(int(sqlalchemy.__version__.split(".")[0]) < 2)' >/dev/null 2>&1; then
  echo "unpacking SQLAlchemy 2 from Debian trixie into $sa2" >&2
  apt="$root/.deps/apt"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
  echo "deb http://deb.debian.org/debian trixie main" >"$apt/sources.list"
  opts=(-o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update -qq
  (cd "$apt/debs" && apt-get "${opts[@]}" download python3-sqlalchemy python3-typing-extensions >/dev/null)
  rm -rf "$apt/root" && mkdir -p "$apt/root" "$sa2"
  for deb in "$apt"/debs/*.deb; do dpkg-deb -x "$deb" "$apt/root"; done
  cp -r "$apt"/root/usr/lib/python3/dist-packages/. "$sa2/"
fi
