#!/usr/bin/env bash
# The dashboard in a real browser: trains a GAT and a recommender through
# psql, loads their pages in headless Chromium, and checks that the plots
# hold the series they should. Saves a screenshot of each page to
# $SCREENSHOTS (default .ci/out), the CI artifact.
# Needs PGHOST/PGPORT (the server) and DASHBOARD (its dashboard's URL).
# Prints "PASS dashboard: check" or "FAIL dashboard: check: why" per check.
set -uo pipefail
cd "$(dirname "$0")/../.."
url=${DASHBOARD:?set DASHBOARD to the dashboard URL}
shots=${SCREENSHOTS:-.ci/out}
chrome=${CHROMIUM:-chromium}
mkdir -p "$shots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

pass() { echo "PASS dashboard: $1"; }
fail() { echo "FAIL dashboard: $1: $2"; failed=1; }

sql() { psql -X -q -v ON_ERROR_STOP=1 -U mallard -d mallard "$@"; }

# browse VIEW HASH: the DOM of the page at #HASH once it says it is ready,
# in $work/VIEW.html, and its screenshot in $shots/dashboard-VIEW.png.
browse() {
  local view=$1 hash=$2 flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars
    --virtual-time-budget=20000 --user-data-dir="$work/profile")
  timeout 120 "$chrome" "${flags[@]}" --dump-dom "$url#$hash" >"$work/$view.html" 2>"$work/$view.log"
  timeout 120 "$chrome" "${flags[@]}" --window-size=1280,1700 --screenshot="$shots/dashboard-$view.png" "$url#$hash" \
    >/dev/null 2>>"$work/$view.log"
}

# count VIEW PATTERN: how many times PATTERN occurs in the DOM of VIEW.
count() { grep -o -- "$2" "$work/$1.html" | wc -l; }

# expect VIEW CHECK PATTERN [N]: PATTERN occurs in VIEW (exactly N times if given).
expect() {
  local n
  n=$(count "$1" "$3")
  if [ -n "${4:-}" ] && [ "$n" -ne "$4" ] || [ "$n" -eq 0 ]; then
    fail "$2" "$3 occurs $n times in the $1 page${4:+, want $4}"
  else
    pass "$2"
  fi
}

# Train a small GAT and a recommender to look at.
if ! sql >"$work/train.log" 2>&1 <<'SQL'
DROP TABLE IF EXISTS dash_u; DROP TABLE IF EXISTS dash_w; DROP TABLE IF EXISTS dash_uw; DROP TABLE IF EXISTS dash_ratings;
SELECT mlops.drop('dash_gat') FROM mlops.models WHERE name = 'dash_gat' LIMIT 1;
SELECT mlops.drop('dash_rec') FROM mlops.models WHERE name = 'dash_rec' LIMIT 1;
CREATE TABLE dash_u (series VARCHAR, year INTEGER, month INTEGER, count INTEGER, rate DOUBLE);
\copy dash_u FROM 'examples/data/unemployment-across-industries.csv' WITH (FORMAT csv, HEADER)
CREATE TABLE dash_w AS SELECT * FROM pivot_entity_time('dash_u', entity := 'series', time := ['year', 'month'], value := 'count');
CREATE TABLE dash_uw AS SELECT * FROM rescale('dash_w', save_as := 'dash_scaler');
SELECT count(*) FROM train_gat('dash_uw', model := 'dash_gat', epochs := 20, optimizer := 'adam', lr := 0.01, scaler := 'dash_scaler');
CREATE TABLE dash_ratings AS SELECT u AS user_id, (u * 7 + i * 13) % 120 AS item_id, 1 + (u + i) % 5 AS rating
  FROM range(1, 201) a(u), range(15) b(i);
SELECT count(*) FROM train_recommender('dash_ratings', model := 'dash_rec', epochs := 3, hidden := [32, 8, 32]);
SQL
then
  fail "train models" "psql failed"; cat "$work/train.log"; exit 1
fi
pass "train models"
run=$(psql -X -At -U mallard -d mallard -c "SELECT run_id FROM mlops.training_runs WHERE model = 'dash_gat' ORDER BY run_id DESC LIMIT 1")

browse overview "/"
expect overview "overview ready" 'data-ready="1"'
expect overview "overview lists the GAT" 'dash_gat'
expect overview "overview lists the recommender" 'dash_rec'

browse run "/runs/$run"
expect run "run page ready" 'data-ready="1"'
expect run "loss plot" 'data-plot="loss"'
for s in train test baseline:ols baseline:constant baseline:last_value; do
  expect run "loss plot has $s" "data-series=\"$s\""
done

browse gat "/models/dash_gat"
expect gat "GAT page ready" 'data-ready="1"'
expect gat "heatmap has 14 x 14 cells" 'class="cell"' 196
expect gat "graph has 14 nodes" 'class="node"' 14
expect gat "graph has edges" 'class="edge"'
expect gat "graph is drawn from attention" 'data-edges="attention"' 1
expect gat "graph hint explains attention" 'width is the attention weight' 1
# An attention edge's stroke width grows with its weight, and the weights
# differ, so the widths do: sorted by weight, the widths never decrease
# and take more than one value.
grep -o 'class="edge" data-weight="[^"]*"[^>]*stroke-width="[^"]*"' "$work/gat.html" |
  sed -E 's/.*data-weight="([^"]*)".*stroke-width="([^"]*)".*/\1 \2/' | sort -g -k1,1 >"$work/widths"
if [ "$(wc -l <"$work/widths")" -gt 42 ]; then
  fail "attention edges" "$(wc -l <"$work/widths") edges, want at most 3 per entity"
elif awk 'NR > 1 && $2 + 0 < w { bad = 1 } !($2 in seen) { seen[$2]; n++ } { w = $2 + 0 } END { exit bad || n < 2 }' "$work/widths"; then
  pass "edge width follows attention"
else
  fail "edge width follows attention" "weight/width pairs: $(tr '\n' ' ' <"$work/widths")"
fi
for s in truth prediction forecast; do
  expect gat "truth plot has $s" "data-series=\"$s:agriculture\""
done

browse recommender "/models/dash_rec?user=3&k=10"
expect recommender "recommender page ready" 'data-ready="1"'
expect recommender "top 10 for user 3" 'class="rec"' 10

for png in "$shots"/dashboard-{overview,run,gat,recommender}.png; do
  if [ "$(stat -c %s "$png" 2>/dev/null || echo 0)" -gt 20000 ]; then
    pass "screenshot $(basename "$png")"
  else
    fail "screenshot $(basename "$png")" "missing or blank"; cat "$work"/*.log | tail -5
  fi
done
exit "$failed"
