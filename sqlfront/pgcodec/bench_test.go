package pgcodec_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

const benchRows = 1_000_000

// benchColumns returns a 1M-row batch of (BIGINT, DOUBLE, 32-character
// VARCHAR, TIMESTAMP) columns and their types.
func benchColumns() ([]sqltype.Type, []arrow.Array) {
	ints := array.NewInt64Builder(mem())
	floats := array.NewFloat64Builder(mem())
	strs := array.NewStringBuilder(mem())
	stamps := array.NewTimestampBuilder(mem(), &arrow.TimestampType{Unit: arrow.Microsecond})
	for k := range benchRows {
		ints.Append(int64(k) * 7919)
		floats.Append(float64(k) / 7)
		strs.Append(fmt.Sprintf("%032d", k))
		stamps.Append(arrow.Timestamp(us2020 + int64(k)*1_000_003))
	}
	types := []sqltype.Type{tBigInt, tDouble, tVarchar, tTimestamp}
	return types, []arrow.Array{ints.NewArray(), floats.NewArray(), strs.NewArray(), stamps.NewArray()}
}

func benchmarkEncodeRows(b *testing.B, format int16) {
	types, cols := benchColumns()
	encs := make([]pgcodec.Encoder, len(types))
	for k, t := range types {
		enc, err := pgcodec.NewEncoder(t, format)
		if err != nil {
			b.Fatal(err)
		}
		encs[k] = enc
	}
	buf := make([]byte, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for row := range benchRows {
			buf = buf[:0]
			for k, enc := range encs {
				// A DataRow's length prefix, as the server writes it.
				buf = append(buf, 0, 0, 0, 0)
				buf = enc(buf, cols[k], row)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}

func BenchmarkEncodeTextRow(b *testing.B)   { benchmarkEncodeRows(b, pgcodec.FormatText) }
func BenchmarkEncodeBinaryRow(b *testing.B) { benchmarkEncodeRows(b, pgcodec.FormatBinary) }

// benchmarkRowEncoder encodes the rows of benchColumns as the server does,
// with a RowEncoder, for comparison with benchmarkEncodeRows.
func benchmarkRowEncoder(b *testing.B, format int16) {
	types, cols := benchColumns()
	rows := bindRows(b, types, format, cols)
	buf := make([]byte, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for row := range benchRows {
			buf = rows.AppendRow(buf[:0], row)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}

func BenchmarkRowEncoderText(b *testing.B)   { benchmarkRowEncoder(b, pgcodec.FormatText) }
func BenchmarkRowEncoderBinary(b *testing.B) { benchmarkRowEncoder(b, pgcodec.FormatBinary) }
