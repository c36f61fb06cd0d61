#!/usr/bin/env bash
# Installs the programs Mallard's tests drive (psql and a PostgreSQL 15 server
# for comparisons, the real clients, pgcli and the tmux that drives it,
# headless Chromium for the dashboard, Open MPI for the scale-out tests, R's forecast package as the reference of
# the forecasting methods, R's dslabs package, whose movielens data set
# scripts/movielens.R writes as MovieLens small), from Debian packages, when
# they are missing.
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
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing: ${need[*]} (install them with your package manager)" >&2
  exit 1
fi
echo "installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
