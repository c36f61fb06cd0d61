#!/usr/bin/env bash
# pgcli in a terminal: starts it in a detached tmux session against the
# server PGHOST/PGPORT/PGUSER/PGDATABASE name, types into it with send-keys
# and reads the screen with capture-pane, as a user would see it. Checks
# that the prompt appears, that Tab completes a table and a column name from
# the completions pgcli loads on connecting, that a query, \dt, \d TABLE and
# \df show what they should, and that no Python traceback appears on the
# screen or in pgcli's log.
# Prints "PASS pgcli: check" or "FAIL pgcli: check: why" (with the screen
# indented below) per check. Every wait has a deadline, so the scenario ends
# by itself within two minutes. pgcli's configuration, history and log live
# in a temporary HOME.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${PGHOST:?} ${PGPORT:?} ${PGUSER:?} ${PGDATABASE:?}"
work=$(mktemp -d)
tmux=(tmux -S "$work/tmux.sock")  # a tmux server of its own
unset TMUX                        # even when run from inside tmux
session=pgcli
prompt="$PGUSER@[^ ]*:$PGDATABASE>"   # pgcli's default prompt, \u@\h:\d>
failed=0
cleanup() { "${tmux[@]}" kill-server 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

pass() { echo "PASS pgcli: $1"; }
fail() {
  echo "FAIL pgcli: $1: $2"
  if [ -n "${3:-}" ]; then sed 's/^/    /' <<<"$3"; fi
  failed=1
}

# screen prints what the terminal shows now; scrollback prints everything
# pgcli has written since it started.
screen() { "${tmux[@]}" capture-pane -p -t "$session" | grep -v '^ *$'; }
scrollback() { "${tmux[@]}" capture-pane -p -S - -t "$session" | grep -v '^ *$'; }

# wait_for SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds,
# for at most SECONDS.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    if [ "$SECONDS" -ge "$deadline" ]; then return 1; fi
    sleep 0.2
  done
}

at_prompt() { screen | grep -q "^$prompt *\$"; }
shows() { screen | grep -q -- "$1"; }

# answered TEXT: the screen shows the output of TEXT and a fresh prompt
# after it.
answered() { scrollback | output_of "$1" | grep -q "^$prompt *\$"; }

# output_of TEXT: the lines after the last prompt line that holds TEXT.
output_of() {
  awk -v p="^$prompt" -v text="$1" '
    $0 ~ p && index($0, text) { n = 0; delete out; found = 1; next }
    found { out[++n] = $0 }
    END { for (i = 1; i <= n; i++) print out[i] }'
}

# run TEXT: types TEXT and Enter, waits for the next prompt and prints what
# TEXT printed.
run() {
  "${tmux[@]}" send-keys -t "$session" -l "$1"
  "${tmux[@]}" send-keys -t "$session" Enter
  wait_for 10 answered "$1" || true
  scrollback | output_of "$1"
}

# complete TEXT WANT: on a cleared screen, types TEXT and Tab until WANT, a
# name that TEXT ends with a prefix of, appears (the completions load in the
# background after the prompt shows, and a menu opens only on a key), for at
# most 15 s; prints the last screen. Each try's line is abandoned.
complete() {
  local shown deadline=$((SECONDS + 15))
  while :; do
    "${tmux[@]}" send-keys -t "$session" C-l
    "${tmux[@]}" send-keys -t "$session" -l "$1"
    "${tmux[@]}" send-keys -t "$session" Tab
    wait_for 2 shows "$2"
    shown=$(screen)
    "${tmux[@]}" send-keys -t "$session" C-c
    if grep -q -- "$2" <<<"$shown" || [ "$SECONDS" -ge "$deadline" ]; then break; fi
  done
  printf '%s\n' "$shown"
}

# check CHECK OUTPUT PATTERN...: CHECK passes if OUTPUT matches every
# extended regular expression PATTERN.
check() {
  local check=$1 out=$2 p
  shift 2
  for p in "$@"; do
    if ! grep -Eq -- "$p" <<<"$out"; then
      fail "$check" "no line matches /$p/" "$out"
      return
    fi
  done
  pass "$check"
}

if ! psql -X -q -v ON_ERROR_STOP=1 >"$work/setup.log" 2>&1 <<'SQL'
DROP TABLE IF EXISTS pgcli_widgets;
CREATE TABLE pgcli_widgets (widget_id integer PRIMARY KEY, widget_name text NOT NULL, unit_price double precision);
INSERT INTO pgcli_widgets VALUES (1, 'sprocket', 2.5), (2, 'gizmo', 10);
SQL
then
  fail setup "psql could not create pgcli_widgets" "$(cat "$work/setup.log")"
  exit 1
fi

mkdir -p "$work/home"
"${tmux[@]}" new-session -d -s "$session" -x 200 -y 50 \
  env HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" PAGER=cat LC_ALL=C.UTF-8 \
  sh -c 'pgcli -w -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -d "$PGDATABASE"; echo "pgcli exited with status $?"; sleep 60'
"${tmux[@]}" set-option -t "$session" history-limit 20000 >/dev/null

if ! wait_for 20 at_prompt; then
  fail prompt "no prompt matching /$prompt/ within 20 s" "$(scrollback)"
  exit 1
fi
pass prompt

out=$(complete 'SELECT * FROM pgcli_widg' pgcli_widgets)
check "table name completion" "$out" 'pgcli_widgets'
out=$(complete 'SELECT * FROM pgcli_widgets WHERE widget_na' widget_name)
check "column name completion" "$out" 'widget_name'

out=$(run 'SELECT widget_name, unit_price FROM pgcli_widgets ORDER BY widget_id')
check query "$out" '\| *widget_name *\| *unit_price *\|' '\| *sprocket *\| *2\.5 *\|' '\| *gizmo *\| *10\.0 *\|' '^SELECT 2$'
out=$(run '\dt')
check '\dt' "$out" '\| *public *\| *pgcli_widgets *\| *table *\|'
out=$(run '\d pgcli_widgets')
check '\d table' "$out" '\| *widget_id *\| *integer *\| *not null *\|' '\| *widget_name *\| *text *\|' \
  '\| *unit_price *\| *double precision *\|' 'PRIMARY KEY, btree \(widget_id\)'
out=$(run '\df')
check '\df' "$out" '\| *Schema *\| *Name *\| *Result data type *\| *Argument data types *\| *Type *\|' '^SELECT [0-9]+$'
out=$(run '\df lower')
check '\df pattern' "$out" '\| *pg_catalog *\| *lower *\| *text *\|'

"${tmux[@]}" send-keys -t "$session" -l '\q'
"${tmux[@]}" send-keys -t "$session" Enter
if wait_for 10 shows "pgcli exited with status"; then
  check exit "$(screen)" 'pgcli exited with status 0'
else
  fail exit "pgcli did not exit on \\q within 10 s" "$(screen)"
fi

log="$work/home/.config/pgcli/log"
if scrollback | grep -q Traceback; then
  fail "no traceback" "a traceback on the screen" "$(scrollback)"
elif [ -r "$log" ] && grep -q Traceback "$log"; then
  fail "no traceback" "a traceback in pgcli's log" "$(cat "$log")"
else
  pass "no traceback"
fi
exit "$failed"
