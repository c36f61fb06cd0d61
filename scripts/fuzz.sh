#!/usr/bin/env bash
# Runs every fuzz target in the module (each `func FuzzX(f *testing.F)` in a
# _test.go file) for FUZZTIME each (default 15s, any -fuzztime value), on top
# of its committed corpus: the f.Add seeds and testdata/fuzz/FuzzX/ of its
# package. go test -fuzz takes one package and one target at a time.
#
# A target fails when an input crashes the process, panics or fails the
# target's checks, and also when a corpus entry does. Go then writes the new
# input to <package>/testdata/fuzz/FuzzX/; this script copies it to
# .ci/out/fuzz/<package>/FuzzX/, prints how to re-run it, runs the other
# targets, and exits 1. Fix the bug and commit the input as a regression
# seed. Each target's output is in .ci/out/fuzz/<package>.FuzzX.log.
# Prints one PASS or FAIL line per target and ends with "fuzz: N passed, M failed".
#
# Go 1.26's fuzz coordinator can fail a target with a bare "context deadline
# exceeded" when -fuzztime expires while a worker is mid-input
# (golang/go#75804, fixed in Go 1.27). A failure of exactly that kind, with
# no input written and no other failure in the log, is run once more; any
# other failure, or the same one twice, fails the target.
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
fuzztime=${FUZZTIME:-15s}
out=.ci/out/fuzz
mkdir -p "$out"

# targets lists "package FuzzX" for every fuzz target, in a stable order.
targets() {
  find . -name '*_test.go' -not -path '*/.*' -not -path '*/node_modules/*' -print0 |
    xargs -0 grep -Eo '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' |
    sed -E 's|^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\(.*|\1 \2|' | sort
}

# fuzz_one fuzzes one target for $fuzztime, its output in the log file.
fuzz_one() {
  "$go" test -tags duckdb_arrow -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" -timeout 5m "$1" >"$3" 2>&1
}

# deadline_race reports whether a failed run's log shows only the
# coordinator's deadline race: "context deadline exceeded" as the target's
# one failure, with no failing input, panic or test error.
deadline_race() {
  grep -q '^    context deadline exceeded$' "$1" &&
    ! grep -Eq 'Failing input written|panic:|_test\.go:[0-9]+:|fuzzing process hung|seed corpus entry' "$1"
}

pass=0; fail=0; failed=()
while read -r pkg name; do
  corpus="$pkg/testdata/fuzz/$name"
  log="$out/$(echo "${pkg#./}" | tr / .).$name.log"
  before=$(ls "$corpus" 2>/dev/null || true)
  if fuzz_one "$pkg" "$name" "$log"; then
    pass=$((pass+1)); echo "PASS fuzz: $pkg $name"
    continue
  fi
  if deadline_race "$log" && [ "$(ls "$corpus" 2>/dev/null || true)" = "$before" ]; then
    cp "$log" "$log.first"
    if fuzz_one "$pkg" "$name" "$log"; then
      pass=$((pass+1)); echo "PASS fuzz: $pkg $name (run again after Go's fuzztime deadline race, golang/go#75804; first log: $log.first)"
      continue
    fi
  fi
  fail=$((fail+1)); failed+=("$name")
  echo "FAIL fuzz: $pkg $name (log: $log)"
  tail -n 30 "$log" | sed 's/^/    /'
  new=$(comm -13 <(echo "$before" | sort) <(ls "$corpus" 2>/dev/null | sort) || true)
  for input in $new; do
    mkdir -p "$out/${pkg#./}/$name"
    cp "$corpus/$input" "$out/${pkg#./}/$name/"
    echo "  crashing input: $corpus/$input (copied to $out/${pkg#./}/$name/$input)"
    echo "  re-run: go test -tags duckdb_arrow -run '^$name/$input\$' $pkg"
  done
  if [ -z "$new" ]; then
    # A committed corpus entry failed: Go names it but writes nothing new.
    grep -Eo "(seed corpus entry|FAIL): $name/[^ ]+" "$log" | sort -u | sed 's/^/  failing input: /' || true
  fi
done < <(targets)

if [ "$fail" -ne 0 ]; then echo "fuzz targets with failures: ${failed[*]}"; fi
echo "fuzz: $pass passed, $fail failed (FUZZTIME=$fuzztime each)"
[ "$fail" -eq 0 ]
