//go:build duckdb_arrow

package sqlfront_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/mallard/mallard/sqlfront"
)

// TestCopyFromBinary: pgx's CopyFrom, which sends Postgres' binary COPY
// format, loads every type a table can hold, NULLs and awkward values
// included, in batches large enough to span several CopyData messages,
// and the values read back equal those sent.
func TestCopyFromBinary(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeCacheStatement)
	mustExec(t, conn, `CREATE TABLE b (id INTEGER, flag BOOLEAN, small SMALLINT, big BIGINT, f4 REAL, f8 DOUBLE,
		price DECIMAL(10, 2), name VARCHAR, raw BLOB, day DATE, ts TIMESTAMP, tstz TIMESTAMPTZ, span INTERVAL,
		u UUID, doc JSON, nums INTEGER[])`)
	columns := []string{"id", "flag", "small", "big", "f4", "f8", "price", "name", "raw", "day", "ts", "tstz", "span", "u", "doc", "nums"}
	at := time.Date(2024, 3, 5, 14, 7, 9, 123456000, time.UTC)
	special := [][]any{
		{1, true, int16(-32768), int64(math.MaxInt64), float32(1.5), math.Inf(-1), pgtype.Numeric{Int: bigInt(-12345), Exp: -2, Valid: true},
			"comma, \"quote\"\nnewline\\back", []byte{0, 1, '\\', 'a', 0xff}, time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC), at, at.Add(time.Hour),
			pgtype.Interval{Months: 14, Days: 3, Microseconds: 4_000_001, Valid: true},
			[16]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2, 3, 4, 5, 6, 7, 8}, map[string]any{"k": []any{1.0, "two"}}, []int32{1, 2, 3}},
		{2, nil, nil, nil, nil, math.NaN(), nil, "", []byte{}, nil, nil, nil, nil, nil, nil, []int32{}},
	}
	rows := append([][]any{}, special...)
	for i := 3; i <= 5000; i++ {
		rows = append(rows, []any{i, i%2 == 0, int16(i % 1000), int64(i) * 1_000_000_007, float32(i) / 4, float64(i) / 3,
			pgtype.Numeric{Int: bigInt(int64(i)), Exp: -2, Valid: true}, fmt.Sprintf("row %d", i), []byte{byte(i)},
			at.AddDate(0, 0, i), at.Add(time.Duration(i) * time.Second), at, pgtype.Interval{Days: int32(i), Valid: true},
			nil, map[string]any{"i": i}, []int32{int32(i)}})
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"b"}, columns, pgx.CopyFromRows(rows))
	if err != nil || n != int64(len(rows)) {
		t.Fatalf("CopyFrom: %d rows, %v", n, err)
	}
	var got string
	err = conn.QueryRow(ctx, `SELECT concat_ws(' | ', flag, small, big, f4, f8, price, name, hex(raw), day, ts, tstz, span, u, doc, nums)
		FROM b WHERE id = 1`).Scan(&got)
	want := "true | -32768 | 9223372036854775807 | 1.5 | -inf | -123.45 | comma, \"quote\"\nnewline\\back | 00015C61FF | 1999-12-31 | " +
		"2024-03-05 14:07:09.123456 | 2024-03-05 15:07:09.123456+00 | 1 year 2 months 3 days 00:00:04.000001 | " +
		"12345678-9abc-def0-0102-030405060708 | {\"k\":[1,\"two\"]} | [1, 2, 3]"
	if err != nil || got != want {
		t.Errorf("row 1:\n got %q (%v)\nwant %q", got, err, want)
	}
	var nulls int
	var f8 float64
	var name string
	var raw []byte
	if err := conn.QueryRow(ctx, `SELECT (flag IS NULL)::INT + (small IS NULL)::INT + (price IS NULL)::INT + (u IS NULL)::INT, f8, name, raw
		FROM b WHERE id = 2`).Scan(&nulls, &f8, &name, &raw); err != nil || nulls != 4 || !math.IsNaN(f8) || name != "" || raw == nil || len(raw) != 0 {
		t.Errorf("row 2: %d NULLs, f8 %v, name %q, raw %v (%v)", nulls, f8, name, raw, err)
	}
	var count, sumIDs int64
	var sumPrice float64
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(id), sum(price)::DOUBLE FROM b WHERE id >= 3").Scan(&count, &sumIDs, &sumPrice); err != nil ||
		count != 4998 || sumIDs != (3+5000)*4998/2 || math.Abs(sumPrice-float64(sumIDs)/100) > 1e-6 {
		t.Errorf("bulk rows: count %d, sum(id) %d, sum(price) %v (%v)", count, sumIDs, sumPrice, err)
	}
}

// TestCopyFromBinaryMalformed: broken binary data fails with 22P04 (or
// 22P03 for a bad value) naming the fault, loads nothing, and leaves the
// connection usable.
func TestCopyFromBinaryMalformed(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeSimpleProtocol)
	mustExec(t, conn, "CREATE TABLE m (a INTEGER, b VARCHAR)")
	header := append([]byte("PGCOPY\n\xff\r\n\x00"), 0, 0, 0, 0, 0, 0, 0, 0)
	tuple := func(fields ...[]byte) []byte {
		b := binary.BigEndian.AppendUint16(nil, uint16(len(fields)))
		for _, f := range fields {
			if f == nil {
				b = binary.BigEndian.AppendUint32(b, math.MaxUint32)
				continue
			}
			b = append(binary.BigEndian.AppendUint32(b, uint32(len(f))), f...)
		}
		return b
	}
	one := binary.BigEndian.AppendUint32(nil, 1)
	good := tuple(one, []byte("x"))
	trailer := []byte{0xff, 0xff}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, tt := range []struct {
		name, code, message string
		data                []byte
	}{
		{"no signature", "22P04", "signature not recognized", []byte("a,b\n")},
		{"empty", "22P04", "signature not recognized", nil},
		{"with oids", "22P04", "WITH OIDS", cat([]byte("PGCOPY\n\xff\r\n\x00"), []byte{0, 1, 0, 0, 0, 0, 0, 0}, good, trailer)},
		{"too few fields", "22P04", "row field count is 1, expected 2", cat(header, good, tuple(one), trailer)},
		{"cut in a tuple", "22P04", "unexpected EOF", cat(header, good, good[:7])},
		{"bad int4 length", "22P03", "column a", cat(header, tuple([]byte{0, 1}, []byte("x")), trailer)},
		{"bad utf-8", "22P03", "column b", cat(header, tuple(one, []byte{0xff, 0xfe}), trailer)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := conn.PgConn().CopyFrom(ctx, bytes.NewReader(tt.data), "COPY m FROM STDIN (FORMAT binary)")
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != tt.code || !strings.Contains(pe.Message, tt.message) {
				t.Fatalf("error %v, want %s containing %q", err, tt.code, tt.message)
			}
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM m").Scan(&n); err != nil || n != 0 {
				t.Fatalf("after the failed COPY: %d rows (%v)", n, err)
			}
		})
	}
	// Without the trailer, and split at every byte, the data still loads.
	data := cat(header, good, good)
	tag, err := conn.PgConn().CopyFrom(ctx, &oneByteReader{data}, "COPY m FROM STDIN BINARY")
	if err != nil || tag.RowsAffected() != 2 {
		t.Fatalf("byte-split COPY without trailer: %v, %v", tag, err)
	}
}

// oneByteReader hands out its data a byte per Read, so that every CopyData
// message pgconn sends holds one byte.
type oneByteReader struct{ data []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	p[0], r.data = r.data[0], r.data[1:]
	return 1, nil
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }
