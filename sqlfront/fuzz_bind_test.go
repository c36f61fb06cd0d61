//go:build duckdb_arrow

package sqlfront_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

// fuzzBindQuery has one parameter of each kind of decoder: fixed-size
// binary, text, floating point and a type decoded to text for DuckDB.
const fuzzBindQuery = "SELECT $1::INTEGER, $2::VARCHAR, $3::DOUBLE, $4::DATE"

// fuzzBindSizes is the binary size of each result column; 0 is variable.
var fuzzBindSizes = []int{4, 0, 8, 4}

// FuzzBind binds fuzzed parameters and formats to fuzzBindQuery and
// executes it. The server must answer with well-formed messages of the
// kinds an extended query produces, end with ReadyForQuery, report any
// failure as an ERROR rather than a FATAL, and then run SELECT 1 on the
// same connection. Results that do come back must have the formats Bind
// asked for. The corpus is in testdata/fuzz/FuzzBind.
//
// count%6 is the number of parameters sent (the statement needs 4), taken
// from p1..p4 in turn; bit i of nulls makes parameter i NULL. Each byte of
// paramFormats and resultFormats is one format code, as a signed int8.
func FuzzBind(f *testing.F) {
	addr := startServer(f, sqlfront.Config{})
	f.Fuzz(func(t *testing.T, paramFormats, p1, p2, p3, p4 []byte, nulls, count uint8, resultFormats []byte) {
		all := [][]byte{p1, p2, p3, p4}
		params := make([][]byte, count%6)
		for i := range params {
			params[i] = append([]byte{}, all[i%4]...)
			if nulls&(1<<i) != 0 {
				params[i] = nil
			}
		}
		bind := &pgproto3.Bind{
			ParameterFormatCodes: formatCodes(paramFormats),
			Parameters:           params,
			ResultFormatCodes:    formatCodes(resultFormats),
		}
		c := dialRaw(t, addr)
		c.startup()
		c.send(&pgproto3.Parse{Query: fuzzBindQuery}, bind,
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{})
		checkBindResponse(t, c, bind.ResultFormatCodes)
		c.assertSelectOne()
	})
}

// formatCodes turns each fuzzed byte into a format code, at most 16 of them.
func formatCodes(b []byte) []int16 {
	codes := make([]int16, 0, min(len(b), 16))
	for _, v := range b[:min(len(b), 16)] {
		codes = append(codes, int16(int8(v)))
	}
	return codes
}

// checkBindResponse reads through ReadyForQuery and checks what the server
// sent for Parse, Bind, Describe, Execute and Sync.
func checkBindResponse(t *testing.T, c *rawClient, resultFormats []int16) {
	t.Helper()
	var seen []string
	failed := false
	for {
		c.conn.SetReadDeadline(time.Now().Add(rawDeadline))
		msg, err := c.fe.Receive()
		if err != nil {
			t.Fatalf("after %v: %v", seen, err)
		}
		seen = append(seen, describe(msg))
		if failed {
			if _, ok := msg.(*pgproto3.ReadyForQuery); !ok {
				t.Fatalf("message after an error and before ReadyForQuery: %v", seen)
			}
		}
		switch m := msg.(type) {
		case *pgproto3.ParseComplete, *pgproto3.BindComplete, *pgproto3.NoticeResponse:
		case *pgproto3.RowDescription:
			checkFormats(t, m, resultFormats)
		case *pgproto3.DataRow:
			if err := checkRow(m, resultFormats); err != nil {
				t.Fatalf("%v: %v", seen, err)
			}
		case *pgproto3.CommandComplete:
			if string(m.CommandTag) != "SELECT 1" {
				t.Fatalf("command tag %q, want SELECT 1", m.CommandTag)
			}
		case *pgproto3.ErrorResponse:
			if m.Severity != "ERROR" {
				t.Fatalf("%s %s %q ends the connection; a bad Bind must not", m.Severity, m.Code, m.Message)
			}
			failed = true
		case *pgproto3.ReadyForQuery:
			if m.TxStatus != 'I' {
				t.Fatalf("transaction status %c, want I", m.TxStatus)
			}
			return
		default:
			t.Fatalf("unexpected %T in %v", msg, seen)
		}
	}
}

// resultFormat is the format of column i under Bind's rules, for a Bind the
// server accepted.
func resultFormat(codes []int16, i int) int16 {
	switch len(codes) {
	case 0:
		return 0
	case 1:
		return codes[0]
	}
	return codes[i]
}

func checkFormats(t *testing.T, rd *pgproto3.RowDescription, codes []int16) {
	t.Helper()
	if len(rd.Fields) != len(fuzzBindSizes) {
		t.Fatalf("RowDescription has %d fields, want %d", len(rd.Fields), len(fuzzBindSizes))
	}
	for i, fd := range rd.Fields {
		if want := resultFormat(codes, i); fd.Format != want {
			t.Fatalf("column %d described in format %d, Bind asked for %d", i, fd.Format, want)
		}
	}
}

// checkRow checks a DataRow's shape: four values, binary ones of the
// type's size.
func checkRow(row *pgproto3.DataRow, codes []int16) error {
	if len(row.Values) != len(fuzzBindSizes) {
		return fmt.Errorf("DataRow has %d values, want %d", len(row.Values), len(fuzzBindSizes))
	}
	for i, v := range row.Values {
		if v == nil {
			continue
		}
		f := resultFormat(codes, i)
		if f != 0 && f != 1 {
			return fmt.Errorf("column %d sent although its format code %d is invalid", i, f)
		}
		if size := fuzzBindSizes[i]; f == 1 && size > 0 && len(v) != size {
			return fmt.Errorf("binary column %d has %d bytes, want %d", i, len(v), size)
		}
	}
	return nil
}
