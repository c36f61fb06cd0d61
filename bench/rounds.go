package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// step is one measurement: a results key and how to take it.
type step struct {
	key  string
	take func(ctx context.Context) (float64, error)
}

// runRounds loads both servers and then measures in rounds: round 0 warms
// everything up and is not recorded, then o.Runs recorded rounds. Every round
// takes every measurement once, PostgreSQL and Mallard back to back in an
// order that alternates between rounds, so that load from other processes
// on the host falls on both sides of each ratio alike.
func runRounds(ctx context.Context, o options) (err error) {
	port, err := freePort()
	if err != nil {
		return err
	}
	srv := &mallardServer{bin: o.MallardBin, db: o.DB, logPath: o.MallardLog, port: port}
	if err := srv.start(ctx); err != nil {
		return err
	}
	defer func() { err = errors.Join(err, srv.stop()) }()
	if err := loadBoth(ctx, o, srv.dsn()); err != nil {
		return err
	}
	// The replay of Mallard's stream, recorded once here, is served by this
	// process, from a file, so that it adds nothing to the client's heap.
	rep, err := recordReplay(ctx, fmt.Sprintf("127.0.0.1:%d", port), filepath.Dir(o.DB), func(dsn string) error {
		_, err := streamWire(ctx, dsn, o.Rows, scanClient)
		return err
	})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, rep.close()) }()
	res := results{}
	secs, err := sourceSeconds(o.Rows)
	if err != nil {
		return err
	}
	res.add(keyCopySource, secs)
	fmt.Fprintf(o.Out, "  generating the COPY input alone takes the client %.2fs\n", secs)
	for round := 0; round <= o.Runs; round++ {
		if err := runRound(ctx, o, srv, rep, res, round); err != nil {
			return err
		}
	}
	return res.save(o.Results)
}

func loadBoth(ctx context.Context, o options, mallardDSN string) error {
	fmt.Fprintf(o.Out, "== loading %d rows into table t\n", o.Rows)
	for _, l := range []struct{ name, dsn, dialect string }{
		{"PostgreSQL", o.PG, "postgres"},
		{"Mallard", mallardDSN, "duckdb"},
	} {
		start := time.Now()
		if err := load(ctx, l.dsn, l.dialect, o.Rows); err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
		fmt.Fprintf(o.Out, "  %-10s %.1fs\n", l.name, time.Since(start).Seconds())
	}
	return nil
}

// runRound takes every measurement once, restarting the Mallard server
// around the in-process ones, and records them unless round is 0.
func runRound(ctx context.Context, o options, srv *mallardServer, rep *replayServer, res results, round int) error {
	name := fmt.Sprintf("round %d/%d", round, o.Runs)
	if round == 0 {
		name = "warm-up round (not recorded)"
	}
	load := loadAverage()
	fmt.Fprintf(o.Out, "== %s, host load average %.2f\n", name, load)
	if round > 0 {
		res.add(keyLoad, load)
	}
	take := func(s step) error {
		cpu := cpuSeconds()
		v, err := s.take(ctx)
		cpu = cpuSeconds() - cpu
		if err != nil {
			return fmt.Errorf("%s, %s: %w", name, s.key, err)
		}
		fmt.Fprintf(o.Out, "  %-20s %10s   bench process CPU %.2fs\n", s.key, formatValue(unitOf(s.key), v), cpu)
		if round > 0 {
			res.add(s.key, v)
			res.add(cpuPrefix+s.key, cpu)
		}
		return nil
	}
	for _, group := range wireGroups(o, srv.dsn(), rep.dsn()) {
		if round%2 == 0 {
			slices.Reverse(group)
		}
		for _, s := range group {
			if err := take(s); err != nil {
				return err
			}
		}
	}
	if err := srv.stop(); err != nil {
		return err
	}
	if err := inProcess(ctx, o, take); err != nil || round == o.Runs {
		return err
	}
	if err := srv.start(ctx); err != nil {
		return err
	}
	return execAll(ctx, srv.dsn(), warmSQL)
}

// inProcess takes the in-process measurements on the database file, which
// the Mallard server must have released.
func inProcess(ctx context.Context, o options, take func(step) error) (err error) {
	db, err := openInProcess(ctx, o.DB)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	err = take(step{keyStreamArrow, func(ctx context.Context) (float64, error) { return arrowStream(ctx, db, o.Rows) }})
	if err != nil {
		return err
	}
	return take(step{keyQPSDuckDB, func(ctx context.Context) (float64, error) {
		return preparedQPS(ctx, db, o.Clients, o.Warmup, o.Duration)
	}})
}

// wireGroups are the over-the-wire measurements, in groups taken back to
// back, PostgreSQL's first in each.
func wireGroups(o options, mallardDSN, replayDSN string) [][]step {
	stream := func(dsn string, client streamClient) func(context.Context) (float64, error) {
		return func(ctx context.Context) (float64, error) { return streamWire(ctx, dsn, o.Rows, client) }
	}
	qps := func(dsn string) func(context.Context) (float64, error) {
		return func(ctx context.Context) (float64, error) {
			return qpsWire(ctx, dsn, o.Clients, o.Warmup, o.Duration)
		}
	}
	cp := func(dsn string) func(context.Context) (float64, error) {
		return func(ctx context.Context) (float64, error) { return copyWire(ctx, dsn, o.Rows) }
	}
	return [][]step{
		{{keyStreamPG, stream(o.PG, scanClient)}, {keyStreamMallard, stream(mallardDSN, scanClient)},
			{keyStreamReplay, stream(replayDSN, scanClient)}},
		{{keyBytesPG, stream(o.PG, bytesClient)}, {keyBytesMallard, stream(mallardDSN, bytesClient)}},
		{{keyTextPG, stream(o.PG, textClient)}, {keyTextMallard, stream(mallardDSN, textClient)}},
		{{keyQPSPG, qps(o.PG)}, {keyQPSMallard, qps(mallardDSN)}},
		{{keyCopyPG, cp(o.PG)}, {keyCopyMallard, cp(mallardDSN)}},
	}
}

// cpuSeconds is the user and system CPU time this process has used: the
// client's work, and for the in-process measurements DuckDB's as well.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// loadAverage is the host's 1-minute load average, which says how much
// other processes competed with the measurements; -1 when unknown.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// hostStealSeconds is the time, summed over the machine's CPUs, that the
// hypervisor ran something else while this virtual machine had work for
// them (the steal column of /proc/stat, in USER_HZ ticks of 1/100 s), or
// NaN where the kernel does not count it. A run whose share of stolen time
// is high was slowed by other guests on the host, not by its own work.
func hostStealSeconds() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return math.NaN()
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(f[8], 64)
	if err != nil {
		return math.NaN()
	}
	return v / 100
}

// hostParallelism times a job that divides perfectly, dot products of rows
// picked at random from a 256 MB table, done by one goroutine and then by
// two, each taking half. On a machine of its own two cores take half the
// time of one; on a virtual machine whose host is busy, or runs its two
// virtual CPUs on the two threads of one core, they take more. Printed
// next to a measured speed-up, it tells the host's part from the code's.
func hostParallelism() (one, two float64) {
	table := make([]float64, 32<<20)
	for i := range table {
		table[i] = float64(i % 1000)
	}
	run := func(workers int) float64 {
		const dots = 2_000_000
		start := time.Now()
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(w), 1))
				rows := len(table) / 150
				s := 0.0
				for range dots / workers {
					for _, v := range table[r.IntN(rows)*150:][:150] {
						s += v
					}
				}
				sink.Add(int64(s))
			})
		}
		wg.Wait()
		return time.Since(start).Seconds()
	}
	return run(1), run(2)
}

// sink keeps hostParallelism's sums from being optimised away.
var sink atomic.Int64
