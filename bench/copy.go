package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"
)

// copyTableSQL recreates the COPY target empty; both dialects accept it.
var copyTableSQL = []string{
	`DROP TABLE IF EXISTS t2`,
	`CREATE TABLE t2 (id int4, d float8, s text, ts timestamp)`,
}

// rowSource is an io.Reader of rows 1..end in COPY text format with the
// columns of t: id, a double in [0, 1), 32 hex digits and a timestamp one
// second per row after 2020-01-01. It formats a batch of rows at a time,
// so the whole input never sits in memory. The text column is a cheap hash
// rather than md5 to keep client CPU, which the server shares on this
// machine, out of the measurement.
type rowSource struct {
	next, end int
	buf       []byte
	off       int
	day       int    // day number whose date prefix is cached in date
	date      []byte // "2020-01-02 "
}

func newRowSource(rows int) *rowSource {
	return &rowSource{next: 1, end: rows, buf: make([]byte, 0, 128<<10), day: -1}
}

// Read implements io.Reader.
func (r *rowSource) Read(p []byte) (int, error) {
	for r.off == len(r.buf) {
		if r.next > r.end {
			return 0, io.EOF
		}
		r.fill()
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// fill formats the next batch of rows into buf.
func (r *rowSource) fill() {
	r.buf, r.off = r.buf[:0], 0
	for k := 0; k < 1000 && r.next <= r.end; k++ {
		r.buf = r.appendRow(r.buf, r.next)
		r.next++
	}
}

const hexDigits = "0123456789abcdef"

var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

func (r *rowSource) appendRow(b []byte, i int) []byte {
	h1, h2 := splitmix(uint64(i)), splitmix(^uint64(i))
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, "\t0."...)
	b = appendPadded(b, int(h1%1_000_000_000), 9)
	b = append(b, '\t')
	for _, h := range [2]uint64{h1, h2} {
		for shift := 60; shift >= 0; shift -= 4 {
			b = append(b, hexDigits[h>>shift&0xf])
		}
	}
	b = append(b, '\t')
	if day := i / 86400; day != r.day {
		r.day = day
		r.date = epoch.AddDate(0, 0, day).AppendFormat(r.date[:0], "2006-01-02 ")
	}
	b = append(b, r.date...)
	sec := i % 86400
	b = appendPadded(b, sec/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, sec/60%60, 2)
	b = append(b, ':')
	b = appendPadded(b, sec%60, 2)
	return append(b, '\n')
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(b []byte, v, width int) []byte {
	start := len(b)
	for range width {
		b = append(b, '0')
	}
	for k := len(b) - 1; k >= start && v > 0; k-- {
		b[k] = byte('0' + v%10)
		v /= 10
	}
	return b
}

// splitmix is the SplitMix64 finalizer, a fast well-mixed hash.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// copyWire times COPY t2 FROM STDIN of rows generated rows into a freshly
// created empty t2 on a new connection, checks the row count, and drops t2.
func copyWire(ctx context.Context, dsn string, rows int) (float64, error) {
	if err := execAll(ctx, dsn, copyTableSQL...); err != nil {
		return 0, fmt.Errorf("recreate t2: %w", err)
	}
	conn, err := connect(ctx, dsn)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	start := time.Now()
	tag, err := conn.PgConn().CopyFrom(ctx, newRowSource(rows), "COPY t2 FROM STDIN")
	if err != nil {
		return 0, err
	}
	elapsed := time.Since(start).Seconds()
	if tag.RowsAffected() != int64(rows) {
		return 0, fmt.Errorf("COPY reported %q, want %d rows", tag.String(), rows)
	}
	if err := checkCount(ctx, conn, "t2", rows); err != nil {
		return 0, err
	}
	if _, err := conn.Exec(ctx, copyTableSQL[0]); err != nil {
		return 0, fmt.Errorf("drop t2: %w", err)
	}
	return elapsed, nil
}

// sourceSeconds is how long generating the COPY input alone takes: the
// client's share of each COPY timing.
func sourceSeconds(rows int) (float64, error) {
	start := time.Now()
	if _, err := io.Copy(io.Discard, newRowSource(rows)); err != nil {
		return 0, fmt.Errorf("generate COPY input: %w", err)
	}
	return time.Since(start).Seconds(), nil
}
