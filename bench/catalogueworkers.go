package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// catalogueWorkers times, in this process on the catalogue's scaled
// matrix with the trained version's configuration, the anchor choice
// (gat.Untrained: the anchor's candidates fitted and scored) and the
// ladder's fits on the training rows (gat.Methods) at 1 worker and at
// o.Workers, in the same run, and prints each and the ratio.
func catalogueWorkers(ctx context.Context, conn *pgx.Conn, o options) error {
	m, err := scaledMatrix(ctx, conn)
	if err != nil {
		return err
	}
	var params []byte
	if err := conn.QueryRow(ctx, "SELECT CAST(hyperparameters AS VARCHAR) FROM mlops.models WHERE name = 'catalogue' ORDER BY version DESC LIMIT 1").Scan(&params); err != nil {
		return fmt.Errorf("read the version's configuration: %w", err)
	}
	var cfg gat.Config
	if err := json.Unmarshal(params, &cfg); err != nil {
		return fmt.Errorf("decode the version's configuration: %w", err)
	}
	workers := []int{1}
	if o.Workers > 1 {
		workers = append(workers, o.Workers)
	}
	anchor, ladder := make([]float64, len(workers)), make([]float64, len(workers))
	var cpu [2]float64 // this process's CPU seconds for the two
	for k, w := range workers {
		cfg.Workers = w
		began, cpu0 := time.Now(), selfCPUSeconds()
		model, err := gat.Untrained(cfg, m)
		if err != nil {
			return fmt.Errorf("anchor choice at %d workers: %w", w, err)
		}
		anchor[k], cpu[0] = time.Since(began).Seconds(), selfCPUSeconds()-cpu0
		fit, val, _, err := cfg.Samples(m)
		if err != nil {
			return err
		}
		began, cpu0 = time.Now(), selfCPUSeconds()
		if _, _, err := gat.Methods(model, m, append(slices.Clone(fit), val...), max(1, cfg.Season)); err != nil {
			return fmt.Errorf("ladder at %d workers: %w", w, err)
		}
		ladder[k], cpu[1] = time.Since(began).Seconds(), selfCPUSeconds()-cpu0
		rule, _ := gat.AnchorOriginsFor(cfg, m.N)
		ladderRule, _ := gat.LadderFor(cfg, m.N)
		fmt.Fprintf(o.Out, "workers %d: anchor choice (%s, origins %s, ladder %s) %.2fs (CPU %.2fs), ladder fits on the training rows %.2fs (CPU %.2fs), host load average %.2f\n",
			w, cfg.Anchor, rule, ladderRule, anchor[k], cpu[0], ladder[k], cpu[1], loadAverage())
	}
	if last := len(workers) - 1; last > 0 {
		fmt.Fprintf(o.Out, "workers %d / 1: anchor choice %.2f, ladder fits %.2f, both %.2f\n", workers[last],
			anchor[last]/anchor[0], ladder[last]/ladder[0], (anchor[last]+ladder[last])/(anchor[0]+ladder[0]))
	}
	return nil
}

// scaledMatrix reads table scaled (week, then one column per product) as
// a Time x Entity matrix, in week order.
func scaledMatrix(ctx context.Context, conn *pgx.Conn) (series.Matrix, error) {
	rows, err := conn.Query(ctx, "SELECT * FROM scaled ORDER BY week")
	if err != nil {
		return series.Matrix{}, err
	}
	defer rows.Close()
	var m series.Matrix
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			return series.Matrix{}, err
		}
		m.N = len(v) - 1
		for _, x := range v[1:] {
			f, ok := x.(float64)
			if !ok {
				return series.Matrix{}, fmt.Errorf("scaled holds a %T, want float64", x)
			}
			m.Values = append(m.Values, f)
		}
		m.T++
	}
	return m, rows.Err()
}

// selfCPUSeconds is the CPU time (user and system) this process has used
// so far, in seconds.
func selfCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
