package main

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// TestLoadEvents draws 400,000 events twice and checks what bench load
// relies on: the same seed gives the same events, every entity and all
// 120 months appear, the largest entity has far more rows than the
// smallest, and about one entity-month in ten is a gap.
func TestLoadEvents(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const entities = 50
	q := loadEventsSQL(0, 400_000, entities, 7)
	stats := `SELECT count(*), CAST(bit_xor(hash(entity, ts, value)) AS VARCHAR), count(DISTINCT entity), min(entity), max(entity),
  count(DISTINCT date_trunc('month', ts)),
  (SELECT count(*) FROM events WHERE entity = 0) / (SELECT count(*) FROM events WHERE entity = 49),
  1 - count(DISTINCT (entity, date_trunc('month', ts))) / (50 * 120)
FROM events`
	var first string
	for run := range 2 {
		if _, err := db.ExecContext(ctx, "CREATE OR REPLACE TABLE events AS "+q); err != nil {
			t.Fatal(err)
		}
		var rows, distinct, lo, hi, months int64
		var sum string
		var ratio, gaps float64
		if err := db.QueryRowContext(ctx, stats).Scan(&rows, &sum, &distinct, &lo, &hi, &months, &ratio, &gaps); err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(rows, " ", sum)
		if run == 1 && got != first {
			t.Errorf("the same seed drew %s and then %s", first, got)
		}
		first = got
		if distinct != entities || lo != 0 || hi != entities-1 || months != 120 {
			t.Errorf("%d entities from %d to %d over %d months; want %d from 0 to %d over 120", distinct, lo, hi, months, entities, entities-1)
		}
		if ratio < 15 {
			t.Errorf("the largest entity has %.1f times the rows of the smallest; want a power law (at least 15)", ratio)
		}
		if gaps < 0.05 || gaps > 0.15 || rows < 340_000 || rows > 380_000 {
			t.Errorf("%.3f of the entity-months are gaps and %d of 400000 rows kept; want about 0.1 and 360000", gaps, rows)
		}
	}
}
