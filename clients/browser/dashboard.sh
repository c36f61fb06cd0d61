#!/usr/bin/env bash
# The dashboard in a real browser: trains GATs, a recommender, classifiers
# and a regressor through psql, loads their pages in headless Chromium, and
# checks that the plots hold the series they should, drawn by the chart
# library where they should be, that recommended items show their names,
# and, through measure.py, where things are laid out and what a canvas
# holds. Saves a screenshot of each page to $SCREENSHOTS (default .ci/out),
# the CI artifact.
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

# measured CHECK HASH WIDTH EXPRESSION: passes when EXPRESSION, evaluated in
# the page at #HASH laid out WIDTH pixels wide, gives {ok: true}; else
# prints what it gave (its "why").
measured() {
  local out
  out=$(measure "$2" "$3" "$4")
  if [ "$(printf '%s' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["ok"])' 2>/dev/null)" = True ]; then
    pass "$1"
  else
    fail "$1" "${out:-measure.py failed: $(tail -1 "$work/measure.log")}"
  fi
}

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

# The longest model name there can be (63 bytes), trained on a source query
# of 300 characters: neither may push a table off the page.
long=dash_long_$(printf 'x%.0s' $(seq 53))
# measure HASH WIDTH EXPRESSION: EXPRESSION's value (JSON) in the page at
# #HASH laid out WIDTH CSS pixels wide, once it is ready (see measure.py).
measure() { CHROMIUM="$chrome" timeout 120 python3 clients/browser/measure.py "$url#$1" "$2" 1000 "$3" 2>>"$work/measure.log"; }

# Train a small GAT and a recommender to look at.
if ! sql -v long="$long" >"$work/train.log" 2>&1 <<'SQL'
DROP TABLE IF EXISTS dash_u; DROP TABLE IF EXISTS dash_w; DROP TABLE IF EXISTS dash_uw; DROP TABLE IF EXISTS dash_ratings; DROP TABLE IF EXISTS dash_items;
DROP TABLE IF EXISTS dash_c; DROP TABLE IF EXISTS dash_cp; DROP TABLE IF EXISTS dash_cw;
SELECT mlops.drop('dash_gat') FROM mlops.models WHERE name = 'dash_gat' LIMIT 1;
SELECT mlops.drop('dash_rec') FROM mlops.models WHERE name = 'dash_rec' LIMIT 1;
SELECT mlops.drop('dash_corr') FROM mlops.models WHERE name = 'dash_corr' LIMIT 1;
SELECT mlops.drop('dash_early') FROM mlops.models WHERE name = 'dash_early' LIMIT 1;
SELECT mlops.drop('dash_quarterly_with_a_name_long_enough_to_push_a_table_off_it') FROM mlops.models
  WHERE name = 'dash_quarterly_with_a_name_long_enough_to_push_a_table_off_it' LIMIT 1;
DROP TABLE IF EXISTS dash_q; DROP TABLE IF EXISTS dash_spiky; DROP TABLE IF EXISTS dash_clean;
SELECT mlops.drop('dash_spiky') FROM mlops.models WHERE name = 'dash_spiky' LIMIT 1;
SELECT mlops.drop('dash_clean') FROM mlops.models WHERE name = 'dash_clean' LIMIT 1;
CREATE TABLE dash_u (series VARCHAR, year INTEGER, month INTEGER, count INTEGER, rate DOUBLE);
\copy dash_u FROM 'examples/data/unemployment-across-industries.csv' WITH (FORMAT csv, HEADER)
CREATE TABLE dash_w AS SELECT * FROM pivot_entity_time('dash_u', entity := 'series', time := ['year', 'month'], value := 'count');
CREATE TABLE dash_uw AS SELECT * FROM rescale('dash_w', save_as := 'dash_scaler');
SELECT count(*) FROM train_gat('dash_uw', model := 'dash_gat', epochs := 20, optimizer := 'adam', lr := 0.01, scaler := 'dash_scaler');
CREATE TABLE dash_ratings AS SELECT u AS user_id, (u * 7 + i * 13) % 120 AS item_id, 1 + (u + i) % 5 AS rating
  FROM range(1, 201) a(u), range(15) b(i);
-- Items 0..119 have names, but for item 7.
CREATE TABLE dash_items AS SELECT i AS item_id, 'Item no. ' || i AS name FROM range(120) t(i) WHERE i <> 7;
SELECT count(*) FROM train_recommender('dash_ratings', model := 'dash_rec', epochs := 3, hidden := [32, 8, 32],
  item_names := 'dash_items.name');
-- A run that stops early: its loss plot ends where it stopped, not at epoch 500.
SELECT count(*) FROM train_gat('dash_uw', model := 'dash_early', epochs := 500, patience := 2, hidden := [4, 4]);
-- Quarterly periods, under a long name.
CREATE TABLE dash_q AS SELECT 2000 + i // 4 AS year, i % 4 + 1 AS quarter, sin(i) + i / 10 AS a, cos(i) + i / 20 AS b
  FROM range(40) r(i);
SELECT count(*) FROM train_gat('dash_q', model := 'dash_quarterly_with_a_name_long_enough_to_push_a_table_off_it', epochs := 2);
-- Three smooth seasonal series over ten years, and the same with a spike
-- down in b at 2008-05 and one up in a at 2009-03.
CREATE TABLE dash_clean AS SELECT 2000 + t // 12 AS year, t % 12 + 1 AS month,
  100 + t / 4 + 10 * sin(t * pi() / 6) + (t * 7 % 5) / 5 AS a, 80 + 8 * cos(t * pi() / 6) + (t * 3 % 7) / 7 AS b,
  50 + t / 10 + 5 * sin(t * pi() / 3) + (t * 5 % 3) / 3 AS c FROM range(120) r(t);
CREATE TABLE dash_spiky AS SELECT year, month, a + CASE WHEN year = 2009 AND month = 3 THEN 60 ELSE 0 END AS a,
  b - CASE WHEN year = 2008 AND month = 5 THEN 50 ELSE 0 END AS b, c FROM dash_clean;
SELECT count(*) FROM train_gat('dash_spiky', model := 'dash_spiky', epochs := 2);
SELECT count(*) FROM train_gat('dash_clean', model := 'dash_clean', epochs := 2);
-- Four entities that all rise together: every pair correlates above 0.9.
CREATE TABLE dash_c AS SELECT 'c' || e AS series, 2000 + t // 12 AS year, t % 12 + 1 AS month,
  100 + t * (e + 2) + (t * (e + 1)) % 5 AS count FROM range(4) a(e), range(72) b(t);
CREATE TABLE dash_cp AS SELECT * FROM pivot_entity_time('dash_c', entity := 'series', time := ['year', 'month'], value := 'count');
CREATE TABLE dash_cw AS SELECT * FROM rescale('dash_cp');
-- The published network (raw values in, the value out) starts far off and
-- learns fast: its loss curve spans more than a decade.
SELECT count(*) FROM train_gat('dash_cw', model := 'dash_corr', epochs := 80, target := 'level', optimizer := 'adam', lr := 0.03, patience := 0);
-- Supervised models: penguins' species, cars' mpg, and 8 x 8 images of a
-- bar (horizontal in even rows, vertical in odd ones) whose label is
-- flipped in every third row, so that about a third of the test images
-- are wrong whatever the model learns.
DROP TABLE IF EXISTS dash_peng; DROP TABLE IF EXISTS dash_cars; DROP TABLE IF EXISTS dash_bars;
SELECT mlops.drop('dash_cls') FROM mlops.models WHERE name = 'dash_cls' LIMIT 1;
SELECT mlops.drop('dash_mpg') FROM mlops.models WHERE name = 'dash_mpg' LIMIT 1;
SELECT mlops.drop('dash_img') FROM mlops.models WHERE name = 'dash_img' LIMIT 1;
SELECT mlops.drop(:'long') FROM mlops.models WHERE name = :'long' LIMIT 1;
CREATE TABLE dash_peng (species VARCHAR, island VARCHAR, bill_length_mm DOUBLE, bill_depth_mm DOUBLE,
  flipper_length_mm DOUBLE, body_mass_g DOUBLE, sex VARCHAR);
\copy dash_peng FROM 'examples/data/penguins.csv' WITH (FORMAT csv, HEADER)
SELECT count(*) FROM train_classifier('dash_peng', label := 'species', model := 'dash_cls', epochs := 30, seed := 7);
SELECT count(*) FROM train_classifier('SELECT species, island, bill_length_mm, bill_depth_mm, flipper_length_mm, body_mass_g, sex
  FROM dash_peng WHERE species IS NOT NULL AND island IS NOT NULL AND bill_length_mm IS NOT NULL AND bill_depth_mm IS NOT NULL
  AND flipper_length_mm IS NOT NULL AND body_mass_g IS NOT NULL', label := 'species', model := :'long', epochs := 1);
CREATE TABLE dash_cars (name VARCHAR, mpg DOUBLE, cylinders INTEGER, displacement DOUBLE, horsepower DOUBLE,
  weight_lbs DOUBLE, acceleration DOUBLE, model_year INTEGER, origin VARCHAR);
\copy dash_cars FROM 'examples/data/cars.csv' WITH (FORMAT csv, HEADER)
SELECT count(*) FROM train_regressor('SELECT * FROM dash_cars WHERE mpg IS NOT NULL', target := 'mpg', model := 'dash_mpg', epochs := 20);
CREATE TABLE dash_bars AS SELECT CASE WHEN (i % 2 = 0) <> (i % 3 = 0) THEN 'h' ELSE 'v' END AS label,
  CAST([CASE WHEN (i % 2 = 0 AND p // 8 = i % 8) OR (i % 2 = 1 AND p % 8 = i % 8) THEN 255 ELSE 0 END FOR p IN range(64)] AS UTINYINT[]) AS pixels
  FROM range(600) t(i);
SELECT count(*) FROM train_classifier('dash_bars', label := 'label', shape := [1, 8, 8], model := 'dash_img', epochs := 2);
SQL
then
  fail "train models" "psql failed"; cat "$work/train.log"; exit 1
fi
# Its version 2 fails: a learning rate of 10 makes the training diverge
# (the registry is read-only to SQL, so the failure is a real one).
sql >>"$work/train.log" 2>&1 <<'SQL'
SELECT count(*) FROM train_gat('dash_cw', model := 'dash_corr', epochs := 50, lr := 10, momentum := 0.99, target := 'level',
  clip := 0, validation_fraction := 0, patience := 0, deploy := 'never');
SQL
if ! grep -q 'training diverged' "$work/train.log"; then
  fail "train models" "the diverging run did not fail"; cat "$work/train.log"; exit 1
fi
pass "train models"
run=$(psql -X -At -U mallard -d mallard -c "SELECT run_id FROM mlops.training_runs WHERE model = 'dash_gat' ORDER BY run_id DESC LIMIT 1")

browse overview "/"
expect overview "overview ready" 'data-ready="1"'
expect overview "overview lists the GAT" 'dash_gat'
expect overview "overview lists the recommender" 'dash_rec'

expect overview "overview labels MSE losses" 'data-metric="MSE"'
expect overview "overview labels RMSE losses" 'data-metric="RMSE"'
# Every loss in the overview's tables says what it measures.
if grep -o '<td class="num">[0-9][^<]*</td>' "$work/overview.html" | grep -q .; then
  fail "overview losses labelled" "$(grep -o '<td class="num">[0-9][^<]*</td>' "$work/overview.html" | head -3 | tr '\n' ' ')"
else
  pass "overview losses labelled"
fi

browse run "/runs/$run"
expect run "run page ready" 'data-ready="1"'
expect run "loss plot" 'data-plot="loss"'
for s in train test baseline:ols baseline:constant baseline:last_value; do
  expect run "loss plot has $s" "data-series=\"$s\""
done
# The loss plot is on a log scale by default when its curves span more than
# a decade, and the toggle (?scale=) switches it.
scale=$(psql -X -At -U mallard -d mallard -c "SELECT CASE WHEN max(greatest(train_loss, test_loss)) > 10 * min(least(train_loss, test_loss))
  THEN 'log' ELSE 'linear' END FROM mlops.training_metrics WHERE run_id = $run AND train_loss > 0 AND test_loss > 0")
other=$([ "$scale" = log ] && echo linear || echo log)
expect run "loss plot is $scale by default" "data-plot=\"loss\" data-yscale=\"$scale\"" 1
expect run "loss plot offers a log scale" 'class="log-toggle"' 1
browse run2 "/runs/$run?scale=$other"
expect run2 "loss plot switches to $other" "data-plot=\"loss\" data-yscale=\"$other\"" 1
# The curves are drawn by the chart library (uPlot) on a canvas: its root
# and canvas are in the plot, and it has drawn (the plot counts its draws).
for view in run run2; do
  expect $view "$view: loss plot drawn by uPlot" 'data-plot="loss" data-yscale="[a-z]*" role="figure" aria-label="[^"]*" data-drawn="[1-9][0-9]*"><div class="uplot' 1
done
expect run "loss plot has a canvas" '<canvas'
# And the canvas holds the curves: the screenshot has the train curve's
# colour along a line, not only in the legend's marker (about 100 pixels).
train_pixels=$(python3 - "$shots/dashboard-run.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
pos, idat, width, height, channels = 8, b'', 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        width, height, depth, colour = struct.unpack('>IIBB', body[:10])
        channels = {2: 3, 6: 4}[colour]
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride, prev, count = zlib.decompress(idat), width * channels, bytearray(width * channels), 0
for y in range(height):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - channels] if i >= channels else 0
        b, c = prev[i], prev[i - channels] if i >= channels else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
        line[i] = (line[i] + pred) & 255
    count += sum(1 for x in range(0, stride, channels) if abs(line[x] - 0x25) + abs(line[x + 1] - 0x63) + abs(line[x + 2] - 0xeb) < 20)
    prev = line
print(count)
PY
)
if [ "${train_pixels:-0}" -gt 600 ]; then
  pass "loss plot's canvas shows the train curve"
else
  fail "loss plot's canvas shows the train curve" "${train_pixels:-no} pixels of its colour in dashboard-run.png"
fi
# Baseline labels beside the loss plot stay 13 px apart and within the
# plotting area (data-y from its top, data-height its height).
for view in run run2; do
  grep -o 'class="hline-label" data-y="[^"]*"' "$work/$view.html" | sed -E 's/.*data-y="([^"]*)"/\1/' | sort -g >"$work/label-y"
  height=$(grep -o 'class="hline-labels" data-height="[^"]*"' "$work/$view.html" | head -1 | sed -E 's/.*data-height="([^"]*)"/\1/')
  if [ "$(wc -l <"$work/label-y")" -lt 3 ] || [ -z "$height" ]; then
    fail "$view: baseline labels" "$(wc -l <"$work/label-y") labels, plot height '$height'"
  elif awk -v h="$height" 'NR > 1 && $1 - y < 12.9 { bad = 1 } $1 < 0 || $1 > h + 0.1 { bad = 1 } { y = $1 } END { exit bad }' "$work/label-y"; then
    pass "$view: baseline labels do not overlap"
  else
    fail "$view: baseline labels do not overlap" "label y: $(tr '\n' ' ' <"$work/label-y") in $height px"
  fi
done
# A loss curve that spans more than a decade is drawn on a log scale by default.
corr_run=$(psql -X -At -U mallard -d mallard -c "SELECT max(run_id) FROM mlops.training_runs WHERE model = 'dash_corr' AND version = 1")
browse decade "/runs/$corr_run"
expect decade "loss plot spanning a decade is log by default" 'data-plot="loss" data-yscale="log"' 1
expect decade "its toggle says so" 'class="log-toggle" checked=""' 1
# On a log scale, every series lies within the plotting area: a value the
# scale cannot place would be drawn off it.
logview=$([ "$scale" = log ] && echo run || echo run2)
height=$(grep -o 'class="hline-labels" data-height="[^"]*"' "$work/$logview.html" | head -1 | sed -E 's/.*data-height="([^"]*)"/\1/')
grep -o 'data-series="t[a-z]*" data-top="[^"]*" data-bottom="[^"]*"' "$work/$logview.html" |
  sed -E 's/.*data-top="([^"]*)" data-bottom="([^"]*)"/\1 \2/' >"$work/log-extents"
if [ "$(wc -l <"$work/log-extents")" -eq 2 ] && awk -v h="$height" '$1 < 0 || $2 > h + 0.1 || $1 >= $2 { bad = 1 } END { exit bad }' "$work/log-extents"; then
  pass "log scale places train and test within the plot"
else
  fail "log scale places train and test within the plot" "top, bottom: $(tr '\n' ';' <"$work/log-extents") in '$height' px"
fi
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

expect gat "truth plot shares one scale by default" 'data-plot="truth" data-yscale="shared"' 1

# heat_range VIEW: "data" when every pair of distinct entities in the
# heatmap (its cells' data-r) correlates above 0.9, else "full".
heat_range() {
  grep -o 'class="cell" data-r="[^"]*"' "$work/$1.html" | sed -E 's/.*data-r="([^"]*)"/\1/' |
    awk '{ n++; if ($1 + 0 <= 0.9) low = 1 } END { print (n && !low) ? "data" : "full" }'
}
expect gat "heatmap scale fits the correlations" "data-range=\"$(heat_range gat)\"" 1

browse corr "/models/dash_corr"
expect corr "correlated model page ready" 'data-ready="1"'
expect corr "heatmap spans the data when every pair is above 0.9" 'data-range="data"' 1
[ "$(heat_range corr)" = data ] && pass "correlated pairs are above 0.9" || fail "correlated pairs are above 0.9" "the check's data are not"
expect corr "heatmap legend says why" 'every pair is above 0.9' 1

browse failed "/models/dash_corr/2"
expect failed "failed version page ready" 'data-ready="1"'
expect failed "failed version says why" 'its training failed: train_gat: training diverged' 1

# Scaled each to its own range, every plotted entity spans the same pixels.
browse own "/models/dash_gat?scale=entity"
expect own "truth plot scales each entity" 'data-plot="truth" data-yscale="entity"' 1
expect own "own-range toggle" 'class="own-scale-toggle"' 1
# Each li of the plot's series list says where the library drew it.
grep -o 'data-series="[a-z]*:[^"]*" data-top="[^"]*" data-bottom="[^"]*"' "$work/own.html" |
  sed -E 's/data-series="[a-z]*:([^"]*)" data-top="([^"]*)" data-bottom="([^"]*)"/\1 \2 \3/' |
  awk '{ if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if (!($1 in hi) || $3 > hi[$1]) hi[$1] = $3 }
    END { for (e in lo) print e, lo[e], hi[e] }' >"$work/own-extents"
if [ "$(wc -l <"$work/own-extents")" -ge 2 ] && [ "$(awk '{ print $(NF-1), $NF }' "$work/own-extents" | sort -u | wc -l)" -eq 1 ]; then
  pass "each entity spans its own range"
else
  fail "each entity spans its own range" "entity, top, bottom: $(tr '\n' ';' <"$work/own-extents")"
fi

rec_run=$(psql -X -At -U mallard -d mallard -c "SELECT run_id FROM mlops.training_runs WHERE model = 'dash_rec' ORDER BY run_id DESC LIMIT 1")
browse recrun "/runs/$rec_run"
expect recrun "recommender run page ready" 'data-ready="1"'
expect recrun "ranking plot drawn by uPlot" 'data-plot="ranking" data-yscale="linear" role="figure" aria-label="[^"]*" data-drawn="[1-9][0-9]*"><div class="uplot' 1
for s in recall_at_10 ndcg_at_10; do
  expect recrun "ranking plot has $s" "data-series=\"$s\" data-top=\"[0-9.]*\" data-bottom=\"[0-9.]*\""
done

browse recommender "/models/dash_rec?user=3&k=10"
expect recommender "recommender page ready" 'data-ready="1"'
expect recommender "top 10 for user 3" 'class="rec"' 10
# The items trained with item_names := show their names beside their ids.
grep -o '<tr class="rec"><td class="num">[0-9]*</td><td>[0-9]*</td><td>[^/]*</span>' "$work/recommender.html" |
  sed -E 's/.*<td>([0-9]*)<\/td><td><span class="([a-z-]*)">([^<]*)<\/span>/\1\t\2\t\3/' >"$work/names"
if [ "$(wc -l <"$work/names")" -eq 10 ] && awk -F'\t' '!($2 == "item-name" && $3 == "Item no. " $1 || $1 == 7 && $3 == "—") { bad = 1 } END { exit bad }' "$work/names"; then
  pass "recommended items show their names"
else
  fail "recommended items show their names" "item, class, name: $(tr '\n\t' '; ' <"$work/names")"
fi
expect recommender "names column headed by its column" '<th>name</th>' 1

# The recommendation's output holds the table and nothing else: no stray "null".
if grep -q '</div>null' "$work/recommender.html"; then
  fail "no null under the recommendations" "the page shows the word null after the table"
else
  pass "no null under the recommendations"
fi

# A run that stopped early: its loss plot's x axis ends at its last epoch.
early_run=$(psql -X -At -U mallard -d mallard -c "SELECT run_id FROM mlops.training_runs WHERE model = 'dash_early' ORDER BY run_id DESC LIMIT 1")
early_last=$(psql -X -At -U mallard -d mallard -c "SELECT max(epoch) FROM mlops.training_metrics WHERE run_id = $early_run")
browse early "/runs/$early_run"
if [ "$early_last" -lt 500 ]; then
  expect early "loss plot of a run stopped at epoch $early_last ends there" "class=\"sr-only plot-series\" data-xmax=\"$early_last\"" 1
else
  fail "loss plot of a run stopped early" "dash_early did not stop early (last epoch $early_last)"
fi

# Quarterly periods read as quarters; a long model name is cut with its
# full name as the link's title, and the models table stays on the page.
quarterly=dash_quarterly_with_a_name_long_enough_to_push_a_table_off_it
browse quarterly "/models/$quarterly"
expect quarterly "quarterly periods read as quarters" '2001 Q3'
[ "$(count quarterly '2001-03')" -eq 0 ] && pass "no quarter shown as a month" || fail "no quarter shown as a month" "2001-03 in the page"
expect quarterly "forecast steps explained" 'steps forecast past the data' 1
expect quarterly "forecast steps tile has its hint" 'continues each series this many steps past its last time' 1
expect overview "long model names cut, with a title" "class=\"model-link\" title=\"$quarterly\""

# The anomalies detect_anomalies flags are ringed on the forecast plot, with
# a legend and a tooltip each (time, value, expected, interval); a clean
# panel has none.
browse spiky "/models/dash_spiky"
expect spiky "spiky model page ready" 'data-ready="1"'
marks=$(grep -o 'class="mark" data-mark="anomaly" data-entity="[^"]*" data-time="[^"]*"' "$work/spiky.html" |
  sed -E 's/.*data-entity="([^"]*)" data-time="([^"]*)"/\1 \2/' | tr '\n' ';')
[ "$marks" = "b 2008-05;a 2009-03;" ] && pass "spikes ringed on the forecast plot" || fail "spikes ringed on the forecast plot" "marks at '$marks', want b 2008-05, a 2009-03"
expect spiky "anomalies in the plot's legend" 'class="key-item key-ring"' 1
expect spiky "anomalies counted under the plot" 'data-anomalies="2"' 1
# Each ring's tooltip gives its time, value, expected value and interval,
# and lies in the plotting area (data-x, data-y from its top left).
if python3 - "$work/spiky.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
marks = re.findall(r'<span class="mark" data-mark="anomaly"[^>]*data-time="([^"]*)" data-x="([^"]*)" data-y="([^"]*)" title="([^"]*)"', page)
tip = re.compile(r'^\w+ · (\d{4}-\d\d)\nvalue [-\d.,]+\nexpected [-\d.,]+\n99 % interval [-\d.,]+ to [-\d.,]+$')
ok = len(marks) == 2 and all(tip.match(t) and tip.match(t).group(1) == time and 0 <= float(x) <= 940 and 0 <= float(y) <= 400
                             for time, x, y, t in marks)
print(marks)
sys.exit(0 if ok else 1)
PY
then pass "anomaly tooltips"; else fail "anomaly tooltips" "see the marks above"; fi
browse clean "/models/dash_clean"
expect clean "clean model page ready" 'data-ready="1"'
[ "$(count clean 'data-mark="anomaly"')" -eq 0 ] && pass "no rings on a clean panel" || fail "no rings on a clean panel" "$(count clean 'data-mark="anomaly"') marks"
expect clean "clean panel says it has no anomalies" 'data-anomalies="0"' 1
[ "$(count clean 'key-ring')" -eq 0 ] && pass "no anomaly legend on a clean panel" || fail "no anomaly legend on a clean panel" "a legend entry"

# EASE, which evaluate measures beside the recommender, is a row of its metrics.
expect recommender "EASE row among the recommender's metrics" '<td><strong>ease</strong></td>' 1
# No "null" anywhere in the text of the recommendations' output.
if python3 - "$work/recommender.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
start = page.find('<div class="rec-out">')
out = re.sub(r'<[^>]*>', ' ', page[start:page.find('</section>', start)]) if start >= 0 else ''
sys.exit(0 if out.strip() and not re.search(r'\bnull\b', out) else 1)
PY
then pass "no null in the recommendations' text"; else fail "no null in the recommendations' text" "null in it, or no output"; fi

# Papercuts measured where the browser lays them out.
measured "a 63-byte model name and a 300-character source keep the overview on the page" "/" 1280 "(() => {
  const w = innerWidth, sw = document.documentElement.scrollWidth, link = document.querySelector('a.model-link[title^=\"dash_long_\"]');
  const right = Math.max(...[...document.querySelectorAll('section.card')].map((c) => c.getBoundingClientRect().right));
  return { ok: !!link && sw <= w && right <= w && link.getBoundingClientRect().width < 400,
    why: { innerWidth: w, scrollWidth: sw, cardsRight: right, linkWidth: link && link.getBoundingClientRect().width } };
})()"
measured "a 63-byte model name and a 300-character source keep its page on the page" "/models/$long" 1280 "(() => ({
  ok: document.documentElement.scrollWidth <= innerWidth && document.querySelector('h1').getBoundingClientRect().right <= innerWidth,
  why: { scrollWidth: document.documentElement.scrollWidth, innerWidth } }))()"
measured "the test MSE (original) column is not clipped at 1,400 px" "/models/dash_gat" 1400 "(() => {
  const th = [...document.querySelectorAll('th')].find((t) => t.textContent === 'Test MSE (original)');
  if (!th) return { ok: false, why: 'no Test MSE (original) column' };
  const wrap = th.closest('.table-wrap'), r = th.getBoundingClientRect(), b = wrap.getBoundingClientRect();
  return { ok: r.right <= b.right + 0.5 && wrap.scrollWidth <= wrap.clientWidth && r.right <= innerWidth,
    why: { columnRight: r.right, tableRight: b.right, scrollWidth: wrap.scrollWidth, clientWidth: wrap.clientWidth } };
})()"

# A classifier's page: loss and validation accuracy per epoch, the
# confusion matrix confusion_matrix gives, and feature importance.
expect overview "overview links the classifier to its page" 'href="#/models/dash_cls"'
browse cls "/models/dash_cls"
expect cls "classifier page ready" 'data-ready="1"'
for s in train validation; do
  expect cls "classifier loss plot has $s" "data-series=\"$s\" data-top=\"[0-9.]*\" data-bottom=\"[0-9.]*\"" 1
done
expect cls "classifier loss plot drawn by uPlot" 'data-plot="cls-loss" data-yscale="linear" role="figure" aria-label="[^"]*" data-drawn="[1-9][0-9]*"><div class="uplot' 1
expect cls "validation accuracy plot" 'data-series="val_accuracy" data-top="[0-9.]*" data-bottom="[0-9.]*"' 1
cls_last=$(psql -X -At -U mallard -d mallard -c "SELECT max(epoch) FROM mlops.training_metrics WHERE run_id =
  (SELECT run_id FROM mlops.models WHERE name = 'dash_cls' AND version = 1)")
expect cls "classifier plots end at its last epoch ($cls_last)" "class=\"sr-only plot-series\" data-xmax=\"$cls_last\"" 2
psql -X -At -F' ' -U mallard -d mallard -c "SELECT actual, predicted, count FROM confusion_matrix('dash_cls') ORDER BY 1, 2" >"$work/cm-sql"
grep -o 'class="cell cm-cell" data-actual="[^"]*" data-predicted="[^"]*" data-count="[^"]*"' "$work/cls.html" |
  sed -E 's/.*data-actual="([^"]*)" data-predicted="([^"]*)" data-count="([^"]*)"/\1 \2 \3/' | sort >"$work/cm-page"
if [ -s "$work/cm-sql" ] && diff -q "$work/cm-sql" "$work/cm-page" >/dev/null; then
  pass "confusion heatmap holds confusion_matrix's counts"
else
  fail "confusion heatmap holds confusion_matrix's counts" "page: $(tr '\n' ';' <"$work/cm-page") sql: $(tr '\n' ';' <"$work/cm-sql")"
fi
[ "$(count cls 'class="wrong-slot"')" -eq 0 ] && pass "no wrong images for a tabular model" || fail "no wrong images for a tabular model" "a wrong-image panel"
if grep -Eq 'class="importance-slot" data-importance="[1-9][0-9]*"' "$work/cls.html"; then
  pass "importance panel shows feature_importance's rows"
else
  fail "importance panel shows feature_importance's rows" "$(grep -o 'class="importance-slot"[^>]*>.\{0,120\}' "$work/cls.html")"
fi

# A regressor's page plots its validation RMSE and has no confusion matrix.
browse mpg "/models/dash_mpg"
expect mpg "regressor page ready" 'data-ready="1"'
expect mpg "validation RMSE plot" 'data-series="val_rmse" data-top="[0-9.]*" data-bottom="[0-9.]*"' 1
[ "$(count mpg 'data-plot="confusion"')" -eq 0 ] && pass "no confusion matrix for a regressor" || fail "no confusion matrix for a regressor" "one is drawn"

# An image classifier's 16 most confidently wrong test images, drawn from
# their pixels: each a bar of 8 lit pixels out of 64, true and predicted
# classes differing, most confident first.
browse img "/models/dash_img"
expect img "image classifier page ready" 'data-ready="1"'
expect img "16 wrong test images" 'canvas class="wrong-image" width="8" height="8"' 16
grep -o 'class="wrong" data-row="[^"]*" data-actual="[^"]*" data-predicted="[^"]*" data-probability="[^"]*"' "$work/img.html" |
  sed -E 's/.*data-actual="([^"]*)" data-predicted="([^"]*)" data-probability="([^"]*)"/\1 \2 \3/' >"$work/wrong"
if [ "$(wc -l <"$work/wrong")" -eq 16 ] && awk '$1 == $2 || (NR > 1 && $3 > p) || $3 < 0.5 { bad = 1 } { p = $3 } END { exit bad }' "$work/wrong"; then
  pass "wrong images are wrong, most confident first"
else
  fail "wrong images are wrong, most confident first" "$(tr '\n' ';' <"$work/wrong")"
fi
measured "wrong images drawn from their pixels" "/models/dash_img" 1280 "(() => {
  const lit = [...document.querySelectorAll('canvas.wrong-image')].map((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) n += d[i] > 128 ? 1 : 0;
    return n;
  });
  return { ok: lit.length === 16 && lit.every((n) => n === 8), why: { litPixels: lit } };
})()"

for png in "$shots"/dashboard-{overview,run,gat,recommender,spiky,cls,img}.png; do
  if [ "$(stat -c %s "$png" 2>/dev/null || echo 0)" -gt 20000 ]; then
    pass "screenshot $(basename "$png")"
  else
    fail "screenshot $(basename "$png")" "missing or blank"; cat "$work"/*.log | tail -5
  fi
done
exit "$failed"
