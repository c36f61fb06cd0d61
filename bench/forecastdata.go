package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
)

// accTrainFraction is the share of each data set's rows that are training
// rows in the forecasting study; the test rows are the rest.
const accTrainFraction = 0.7

// loadUnemployment reads the CSV (series, year, month, count, rate) as a
// months x industries matrix of counts; industries are sorted by name.
// start is the first month, year*12 + month-1.
func loadUnemployment(path string) (m series.Matrix, names []string, start int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: %w", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return series.Matrix{}, nil, 0, fmt.Errorf("read unemployment data: %w", err)
	}
	type cell struct {
		name  string
		month int
		count float64
	}
	var cells []cell
	var months []int
	for _, r := range recs[min(1, len(recs)):] {
		if len(r) < 4 {
			return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: bad row %q", r)
		}
		y, e1 := strconv.Atoi(r[1])
		mo, e2 := strconv.Atoi(r[2])
		v, e3 := strconv.ParseFloat(r[3], 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: bad row %q", r)
		}
		cells = append(cells, cell{r[0], y*12 + mo - 1, v})
		names, months = append(names, r[0]), append(months, y*12+mo-1)
	}
	slices.Sort(names)
	slices.Sort(months)
	names, months = slices.Compact(names), slices.Compact(months)
	if len(months) == 0 || len(cells) != len(months)*len(names) {
		return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: %d counts for %d industries x %d months", len(cells), len(names), len(months))
	}
	m = series.Matrix{T: len(months), N: len(names), Values: make([]float64, len(months)*len(names))}
	for _, c := range cells {
		t, _ := slices.BinarySearch(months, c.month)
		n, _ := slices.BinarySearch(names, c.name)
		m.Values[t*m.N+n] = c.count
	}
	return m, names, months[0], nil
}

// rescaleSignedLogZ is signed_log_zscore with global statistics of the
// first rows rows, accumulated in row-major order as mlops/gat's test does,
// so seed for seed the default configuration reproduces its numbers.
func rescaleSignedLogZ(m series.Matrix, rows int) series.Matrix {
	var mom scale.Moments
	for _, v := range m.Values[:rows*m.N] {
		mom.Add(scale.SignedLog(v))
	}
	out := series.Matrix{T: m.T, N: m.N, Values: make([]float64, len(m.Values))}
	for i, v := range m.Values {
		out.Values[i] = (scale.SignedLog(v) - mom.Mean) / mom.Std()
	}
	return out
}

// parallelRuns calls run for jobs 0..n-1 on GOMAXPROCS goroutines. Each
// run trains with one worker and writes only its own results, so the
// results do not depend on the scheduling. The first error cancels the
// rest and is returned.
func parallelRuns(ctx context.Context, n int, run func(ctx context.Context, job int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for job := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if err := run(ctx, job); err != nil {
					cancel(err)
				}
			}
		})
	}
feed:
	for job := range n {
		select {
		case jobs <- job:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return context.Cause(ctx)
}
