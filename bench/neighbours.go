package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/series"
)

// neighboursTargets is how many targets per sample row bench neighbours
// checks the approximate sources of against the exact ones.
const neighboursTargets = 500

// neighboursKeep is the neighbour limit bench neighbours measures: the
// catalogue's neighbors := 10.
const neighboursKeep = 10

// catalogueTwin is an n-product, weeks-row matrix shaped as bench
// catalogue's table (see catalogueSQL) before pivot and rescale: a level,
// a yearly wave of each product's own phase and amplitude, a trend of its
// own and uniform noise, drawn in Go from seed (DuckDB's hash is not
// reproduced). Correlations do not change with a product's scale and
// level, so rescale's z-score is left out.
func catalogueTwin(n, weeks int, seed uint64) series.Matrix {
	r := rand.New(rand.NewPCG(seed, 156))
	m := series.Matrix{T: weeks, N: n, Values: make([]float64, weeks*n)}
	for e := range n {
		level, amp, phase, trend := 100+50*r.Float64(), 10+30*r.Float64(), 2*math.Pi*r.Float64(), (r.Float64()-0.5)*0.4
		for w := range weeks {
			m.Values[w*n+e] = level + amp*math.Sin(2*math.Pi*float64(w)/52+phase) + trend*float64(w) + 8*(r.Float64()-0.5)
		}
	}
	return m
}

// runNeighbours prints, for each size of -sizes and each window of
// -windows, the recall of the exact top-10 sources by NearAllOver (with
// -tables and -span) on neighboursTargets targets at three sample rows
// of the catalogue's twin, and the time of one sample's graph, exact
// (StrongestAllOver) against approximate, at -workers workers in the same
// run; then the same recall on the public panels, the approximate search
// forced. It stops between lines when ctx ends (an interrupt).
func runNeighbours(ctx context.Context, o options) error {
	near := series.DefaultNear
	if o.NearTables > 0 {
		near.Tables = o.NearTables
	}
	if o.NearSpan > 0 {
		near.Span = o.NearSpan
	}
	if o.NearRounds >= 0 {
		near.Rounds = o.NearRounds
	}
	out := io.Writer(os.Stdout)
	fmt.Fprintf(out, "approximate neighbours: tables %d, span %d, rounds %d, seed %d, k %d (at most N-2 on the panels), %d workers\n", near.Tables, near.Span, near.Rounds, near.Seed, neighboursKeep, o.Workers)
	fmt.Fprintln(out, "| set | N | window | k | recall of the top-k | k-th |corr| found / exact | exact s/sample | approx s/sample | ratio |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|")
	windows, err := intList(o.NearWindows)
	if err != nil {
		return err
	}
	sizes, err := intList(o.NearSizes)
	if err != nil {
		return err
	}
	for _, n := range sizes {
		m := catalogueTwin(n, catalogueWeeks, 1)
		for _, window := range windows {
			if err := ctx.Err(); err != nil {
				return err
			}
			rowsAt := []int{52, 104, catalogueWeeks}
			neighboursRow(out, "catalogue twin", m, window, rowsAt, near, o.Workers, true)
		}
	}
	sets, err := fcDataSets(o)
	if err != nil {
		return err
	}
	for _, ds := range sets {
		for _, window := range windows {
			if ds.m.N < 3 || ds.m.T < window {
				continue
			}
			var rowsAt []int
			for t := window; t <= ds.m.T; t++ {
				rowsAt = append(rowsAt, t)
			}
			neighboursRow(out, ds.name, ds.m, window, rowsAt, near, o.Workers, false)
		}
	}
	return nil
}

// neighboursRow prints one line of runNeighbours's table: recall over the
// sample rows rowsAt and, when timed, the time of the last one's graph.
func neighboursRow(out io.Writer, name string, m series.Matrix, window int, rowsAt []int, near series.Near, workers int, timed bool) {
	keep := min(neighboursKeep, m.N-2) // below N-1, so that the search is the approximate one
	var w series.Windows
	found, total := 0, 0
	kthRatio, kthN := 0.0, 0
	var exactT, nearT time.Duration
	for _, t := range rowsAt {
		w.Set(m, t, window)
		start := time.Now()
		approx := w.NearAllOver(nil, keep, workers, near)
		nearT = time.Since(start)
		for _, j := range sampleTargets(m.N, min(m.N, neighboursTargets), uint64(t)) {
			exact := w.Strongest(nil, j, keep)
			got := approx[j*keep : (j+1)*keep]
			for _, i := range exact {
				if slices.Contains(got, i) {
					found++
				}
			}
			total += len(exact)
			if want := weakest(&w, exact, j); want > 0 {
				kthRatio += weakest(&w, got, j) / want
				kthN++
			}
		}
		if timed && t == rowsAt[len(rowsAt)-1] {
			start = time.Now()
			w.StrongestAllOver(nil, keep, workers)
			exactT = time.Since(start)
		}
	}
	times := "| - | - | -"
	if timed {
		times = fmt.Sprintf("| %.3f | %.3f | %.1fx", exactT.Seconds(), nearT.Seconds(), exactT.Seconds()/nearT.Seconds())
	}
	fmt.Fprintf(out, "| %s | %d | %d | %d | %.4f | %.4f %s |\n", name, m.N, window, keep, float64(found)/float64(total), kthRatio/float64(max(1, kthN)), times)
}

// weakest is the smallest |Corr| of target j with the sources src.
func weakest(w *series.Windows, src []int32, j int) float64 {
	low := math.Inf(1)
	for _, i := range src {
		low = min(low, math.Abs(w.Corr(int(i), j)))
	}
	return low
}

// sampleTargets are k distinct targets of n, seeded.
func sampleTargets(n, k int, seed uint64) []int {
	return rand.New(rand.NewPCG(seed, 43)).Perm(n)[:k]
}

// intList parses a comma-separated list of positive integers.
func intList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("list %q: %q is not a positive integer", s, f)
		}
		out = append(out, v)
	}
	return out, nil
}
