package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// Measurement keys: what was measured, a slash, and where.
const (
	keyStreamPG      = "stream/pg"
	keyStreamMallard = "stream/mallard"
	keyStreamArrow   = "stream/arrow"
	// keyStreamReplay is the scanning client reading Mallard's recorded
	// stream from a server that does nothing else (see replayServer).
	keyStreamReplay = "stream/replay"
	// keyBytes* are the stream read by bytesClient.
	keyBytesPG      = "stream-bytes/pg"
	keyBytesMallard = "stream-bytes/mallard"
	// keyText* are the stream read by textClient.
	keyTextPG      = "stream-text/pg"
	keyTextMallard = "stream-text/mallard"
	keyQPSPG       = "qps/pg"
	keyQPSMallard  = "qps/mallard"
	keyQPSDuckDB   = "qps/duckdb"
	keyCopyPG      = "copy/pg"
	keyCopyMallard = "copy/mallard"
	keyCopySource  = "copy/source"
	keyLoad        = "host/load1"
	// cpuPrefix before a key names the CPU seconds the bench process used
	// while taking that measurement, QPS warm-up included.
	cpuPrefix = "cpu/"
)

// units of the measurements: seconds for the timings, queries per second
// for the rates.
const (
	unitSeconds = "s"
	unitQPS     = "qps"
	unitLoad    = "load"
)

func unitOf(key string) string {
	switch key {
	case keyQPSPG, keyQPSMallard, keyQPSDuckDB:
		return unitQPS
	case keyLoad:
		return unitLoad
	}
	return unitSeconds
}

// measurement is the measured runs of one thing, warm-ups excluded.
type measurement struct {
	Unit string    `json:"unit"`
	Runs []float64 `json:"runs"`
}

// median is the middle run, or the mean of the middle two.
func (m measurement) median() float64 {
	if len(m.Runs) == 0 {
		return 0
	}
	return median(m.Runs)
}

// median is the middle value of xs, or the mean of the middle two; xs
// must not be empty.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// results maps measurement keys to their runs.
type results map[string]measurement

func (r results) add(key string, v float64) {
	m := r[key]
	m.Unit = unitOf(key)
	m.Runs = append(m.Runs, v)
	r[key] = m
}

func (r results) save(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

func readResults(path string) (results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	r := results{}
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("read results %s: %w", path, err)
	}
	return r, nil
}

// formatValue prints seconds with two decimals, rates as whole queries per
// second and load averages as they are.
func formatValue(unit string, v float64) string {
	switch unit {
	case unitQPS:
		return fmt.Sprintf("%.0f/s", v)
	case unitLoad:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.2fs", v)
}
