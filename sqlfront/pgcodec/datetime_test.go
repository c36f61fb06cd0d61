package pgcodec_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/mallard/mallard/sqlfront/pgcodec"
)

// pgDate renders t's date as Postgres does, from Go's own calendar, as an
// independent reference.
func pgDate(t time.Time) string {
	y, m, d := t.Date()
	if y <= 0 {
		return fmt.Sprintf("%04d-%02d-%02d BC", 1-y, m, d)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

// TestDateMatchesGoCalendar compares DATE text with Go's calendar across
// DuckDB's whole date range, densely near the epochs and year boundaries.
func TestDateMatchesGoCalendar(t *testing.T) {
	var days []int32
	for d := int64(-duckDayInf + 1); d < duckDayInf; d += 104729 {
		days = append(days, int32(d))
	}
	for d := int32(-800_000); d < 3_000_000; d += 13 {
		days = append(days, d)
	}
	days = append(days, -duckDayInf+1, duckDayInf-1, days1BC-1, days1BC, days1BC+366, -719162)
	arr := dateArr(days...)
	enc, err := pgcodec.NewEncoder(tDate, pgcodec.FormatText)
	if err != nil {
		t.Fatal(err)
	}
	for k, d := range days {
		want := pgDate(time.Unix(int64(d)*86400, 0).UTC())
		if got := string(enc(nil, arr, k)); got != want {
			t.Fatalf("date %d days after 1970 = %q, want %q", d, got, want)
		}
	}
}

// TestTimestampMatchesGoCalendar compares TIMESTAMP text with Go's
// formatting for random instants in years 1 to 9999.
func TestTimestampMatchesGoCalendar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lo, hi := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	us := []int64{lo, hi - 1, 0, -1, 946684800000000}
	for range 20000 {
		v := lo + rng.Int64N(hi-lo)
		if rng.IntN(2) == 0 {
			v -= v % 1000 // Exercise trimmed fractions too.
		}
		us = append(us, v)
	}
	arr := tsArr(arrow.Microsecond, "", us...)
	enc, err := pgcodec.NewEncoder(tTimestamp, pgcodec.FormatText)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range us {
		want := time.UnixMicro(v).UTC().Format("2006-01-02 15:04:05.999999")
		if got := string(enc(nil, arr, k)); got != want {
			t.Fatalf("timestamp %d = %q, want %q", v, got, want)
		}
	}
}
