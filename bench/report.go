package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// comparison is one line of the summary: Mallard's median against a
// baseline's, with the goal for their ratio.
type comparison struct {
	label    string
	mallard  string // results key
	baseline string // results key
	goal     float64
	atMost   bool // the goal is ratio <= goal; otherwise ratio >= goal
	info     bool // no goal: reported for context
}

func comparisons(rows int) []comparison {
	n := countLabel(rows)
	return []comparison{
		{label: "stream " + n + " rows, values as bytes, vs PostgreSQL", mallard: keyBytesMallard, baseline: keyBytesPG, goal: 0.8, atMost: true},
		{label: "stream " + n + " rows, values as bytes, vs in-process Arrow", mallard: keyBytesMallard, baseline: keyStreamArrow, goal: 2.0, atMost: true},
		{label: "  same, vs PostgreSQL to the scanning client", mallard: keyBytesMallard, baseline: keyStreamPG, info: true},
		{label: "stream " + n + " rows, scanned, vs PostgreSQL", mallard: keyStreamMallard, baseline: keyStreamPG, goal: 0.8, atMost: true},
		{label: "stream " + n + " rows, scanned, vs in-process Arrow", mallard: keyStreamMallard, baseline: keyStreamArrow, goal: 2.0, atMost: true},
		{label: "  scanning client alone (replay) vs PostgreSQL", mallard: keyStreamReplay, baseline: keyStreamPG, info: true},
		{label: "  Mallard vs the scanning client alone", mallard: keyStreamMallard, baseline: keyStreamReplay, info: true},
		{label: "stream " + n + " rows, text format, vs PostgreSQL", mallard: keyTextMallard, baseline: keyTextPG, info: true},
		{label: "select $1::int QPS vs in-process", mallard: keyQPSMallard, baseline: keyQPSDuckDB, goal: 0.8},
		{label: "select $1::int QPS vs PostgreSQL", mallard: keyQPSMallard, baseline: keyQPSPG, info: true},
		{label: "COPY FROM STDIN " + n + " rows vs PostgreSQL", mallard: keyCopyMallard, baseline: keyCopyPG, goal: 1.0, atMost: true},
	}
}

// report prints the summary table of every comparison whose two
// measurements are in the results file, then each measurement's runs.
func report(o options) error {
	r, err := readResults(o.Results)
	if err != nil {
		return err
	}
	out := o.Out
	fmt.Fprintf(out, "%-56s %10s %10s %6s  %-6s %s\n", "measure", "mallard", "baseline", "ratio", "goal", "met")
	for _, c := range comparisons(o.Rows) {
		m, okM := r[c.mallard]
		b, okB := r[c.baseline]
		if !okM || !okB {
			fmt.Fprintf(out, "%-56s %s\n", c.label, "not measured")
			continue
		}
		mv, bv := m.median(), b.median()
		ratio := mv / bv
		fmt.Fprintf(out, "%-56s %10s %10s %6.2f  %-6s %s\n", c.label,
			formatValue(m.Unit, mv), formatValue(b.Unit, bv), ratio, c.goalText(), c.verdict(ratio))
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "recorded rounds (the table shows medians; times in seconds, rates in queries per second):")
	printRuns(out, r)
	fmt.Fprintln(out, "  cpu/X is the CPU the bench process used during X: the client's work (for the in-process")
	fmt.Fprintln(out, "  baselines DuckDB's too); host/load1 is the host's 1-minute load average at each round's start.")
	fmt.Fprintln(out, "  copy/source is the time the client takes to generate the COPY input alone.")
	fmt.Fprintln(out, "  stream/* scan every value into Go values with pgx; stream-bytes/* read each value's wire bytes")
	fmt.Fprintln(out, "  through pgconn (stream-text/* all in text format). stream/replay is the scanning client reading Mallard's recorded bytes from a")
	fmt.Fprintln(out, "  server that only sends them: the floor of any server's figure with that client.")
	return nil
}

func (c comparison) goalText() string {
	switch {
	case c.info:
		return "-"
	case c.atMost:
		return fmt.Sprintf("<= %.1f", c.goal)
	}
	return fmt.Sprintf(">= %.1f", c.goal)
}

func (c comparison) verdict(ratio float64) string {
	switch {
	case c.info:
		return "(info)"
	case c.atMost && ratio <= c.goal, !c.atMost && ratio >= c.goal:
		return "yes"
	}
	return "NO"
}

func printRuns(out io.Writer, r results) {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m := r[k]
		runs := make([]string, len(m.Runs))
		for i, v := range m.Runs {
			runs[i] = formatValue(m.Unit, v)
		}
		fmt.Fprintf(out, "  %-26s median %-9s runs %s\n", k, formatValue(m.Unit, m.median()), strings.Join(runs, " "))
	}
}

// countLabel writes a row count as 10M, 200k or 1500.
func countLabel(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}
