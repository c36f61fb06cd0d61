package copyin_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"testing"

	"github.com/mallard/mallard/sqlfront/copyin"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

var (
	textOpts   = copyin.Options{Table: "t", Format: "text", Delimiter: "\t", Null: `\N`}
	csvOpts    = copyin.Options{Table: "t", Format: "csv", Delimiter: ",", Quote: `"`, Escape: `"`}
	binaryOpts = copyin.Options{Table: "t", Format: "binary"}

	intText = []sqltype.Column{{Name: "a", Type: sqltype.Type{ID: sqltype.Integer}}, {Name: "b", Type: sqltype.Type{ID: sqltype.Varchar}}}
	intList = []sqltype.Column{{Name: "a", Type: sqltype.Type{ID: sqltype.Integer}},
		{Name: "l", Type: sqltype.Type{ID: sqltype.List, Elem: &sqltype.Type{ID: sqltype.Integer}}}}
)

// parse feeds each payload to a parser and returns what it wrote, the
// rows it counted and its error.
func parse(opts copyin.Options, cols []sqltype.Column, payloads ...[]byte) (string, int64, error) {
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	p := copyin.NewParser(opts, cols, w)
	for _, data := range payloads {
		p.Feed(data)
	}
	err := p.Finish()
	w.Flush()
	return out.String(), p.Rows(), err
}

// binaryData frames tuples, each a list of fields (nil for NULL), as
// binary COPY data with its header and trailer.
func binaryData(tuples ...[][]byte) []byte {
	b := append([]byte("PGCOPY\n\xff\r\n\x00"), 0, 0, 0, 0, 0, 0, 0, 0)
	for _, t := range tuples {
		b = binary.BigEndian.AppendUint16(b, uint16(len(t)))
		for _, f := range t {
			if f == nil {
				b = binary.BigEndian.AppendUint32(b, 0xffffffff)
				continue
			}
			b = append(binary.BigEndian.AppendUint32(b, uint32(len(f))), f...)
		}
	}
	return binary.BigEndian.AppendUint16(b, 0xffff)
}

func TestParser(t *testing.T) {
	headerCSV := csvOpts
	headerCSV.Header = true
	backslashCSV := csvOpts
	backslashCSV.Escape = `\`
	headerText := textOpts
	headerText.Header = true
	tests := []struct {
		name     string
		opts     copyin.Options
		cols     []sqltype.Column
		in       string
		want     string
		wantCode sqlstate.Code
	}{
		{"text", textOpts, intText, "1\tab\n2\t\\N\n", "\"1\",\"ab\"\n\"2\",\n", ""},
		{"text escapes", textOpts, intText, "1\tx\\ty\\n\\101\\x41\\\\\n", "\"1\",\"x\ty\nAA\\\"\n", ""},
		{"text quotes doubled", textOpts, intText, "1\ta\"b\n", "\"1\",\"a\"\"b\"\n", ""},
		{"text CRLF", textOpts, intText, "1\ta\r\n", "\"1\",\"a\"\n", ""},
		{"text last row without newline", textOpts, intText, "1\ta", "\"1\",\"a\"\n", ""},
		{"text header and end marker", headerText, intText, "a\tb\n1\tv\n\\.\n2\tignored\n", "\"1\",\"v\"\n", ""},
		{"text array as list", textOpts, intList, "1\t{1,2}\n", "\"1\",\"[1,2]\"\n", ""},
		{"text missing column", textOpts, intText, "1\n", "", sqlstate.BadCopyFileFormat},
		{"text extra column", textOpts, intText, "1\t2\t3\n", "", sqlstate.BadCopyFileFormat},
		{"text backslash at the end", textOpts, intText, "1\ta\\\n", "", sqlstate.BadCopyFileFormat},
		{"csv", csvOpts, intText, "1,\"a,b\nc\"\n2,\n3,\"\"\n", "\"1\",\"a,b\nc\"\n\"2\",\n\"3\",\"\"\n", ""},
		{"csv header", headerCSV, intText, "a,b\n1,x\n", "\"1\",\"x\"\n", ""},
		{"csv doubled quote", csvOpts, intText, "1,\"a\"\"b\"\n", "\"1\",\"a\"\"b\"\n", ""},
		{"csv escape", backslashCSV, intText, "1,\"a\\\"b\"\n", "\"1\",\"a\"\"b\"\n", ""},
		{"csv end marker", csvOpts, intText, "1,a\n\\.\n2,b\n", "\"1\",\"a\"\n", ""},
		{"csv unterminated quote", csvOpts, intText, "1,\"a\n", "", sqlstate.BadCopyFileFormat},
		{"binary", binaryOpts, intText, string(binaryData([][]byte{{0, 0, 0, 7}, []byte("seven")}, [][]byte{nil, nil})),
			"\"7\",\"seven\"\n,\n", ""},
		{"binary signature", binaryOpts, intText, "PGCOPY\n\xff\r\n\x01", "", sqlstate.BadCopyFileFormat},
		{"binary field count", binaryOpts, intText, string(binaryData([][]byte{{0, 0, 0, 7}})), "", sqlstate.BadCopyFileFormat},
		{"binary integer of 3 bytes", binaryOpts, intText, string(binaryData([][]byte{{0, 0, 7}, nil})), "", sqlstate.InvalidBinaryRepresentation},
		{"binary truncated", binaryOpts, intText, string(binaryData([][]byte{{0, 0, 0, 7}, []byte("seven")}))[:25], "", sqlstate.BadCopyFileFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rows, err := parse(tt.opts, tt.cols, []byte(tt.in))
			if tt.wantCode != "" {
				var se *sqlstate.Error
				if !errors.As(err, &se) || se.Code != tt.wantCode {
					t.Fatalf("error %v, want SQLSTATE %s", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("wrote %q, want %q", got, tt.want)
			}
			if records, _ := csv.NewReader(bytes.NewReader([]byte(tt.want))).ReadAll(); rows != int64(len(records)) {
				t.Fatalf("counted %d rows, want %d", rows, len(records))
			}
		})
	}
}

// TestParserErrorNamesLine checks that an error says on which line of the
// data it is, counting lines inside quoted CSV fields, and in binary
// format the tuple.
func TestParserErrorNamesLine(t *testing.T) {
	tests := []struct {
		name string
		opts copyin.Options
		in   []string // payloads
		want string
	}{
		{"text", textOpts, []string{"1\ta\n2\n"}, "COPY t, line 2"},
		{"csv with a newline in a field", csvOpts, []string{"1,\"a\nb\"\n2\n"}, "COPY t, line 3"},
		{"binary", binaryOpts, []string{string(binaryData([][]byte{nil, nil}, [][]byte{nil}))}, "COPY t, line 2"},
		{"binary, a tuple split across payloads", binaryOpts, splitAt(binaryData([][]byte{nil, nil}, [][]byte{nil}), 22), "COPY t, line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var payloads [][]byte
			for _, s := range tt.in {
				payloads = append(payloads, []byte(s))
			}
			_, _, err := parse(tt.opts, intText, payloads...)
			var se *sqlstate.Error
			if !errors.As(err, &se) || se.Where != tt.want {
				t.Fatalf("error %#v, want one at %q", err, tt.want)
			}
		})
	}
}

// splitAt splits b into two payloads at i.
func splitAt(b []byte, i int) []string { return []string{string(b[:i]), string(b[i:])} }

// FuzzParser parses the fuzzed bytes as COPY data in the format format
// picks (text, csv or binary) for two columns, an INTEGER and a VARCHAR or
// an INTEGER[], once in one payload and once split where split says.
// Whatever the bytes:
//   - the parser returns, without panicking;
//   - an error is a *sqlstate.Error;
//   - where the payloads split changes nothing: the output, the row count
//     and the error are the same;
//   - without an error, the output is CSV of as many records as rows
//     counted, two fields each.
func FuzzParser(f *testing.F) {
	f.Add([]byte("1\tab\n2\t\\N\n\\.\n"), uint8(0), uint16(3))
	f.Add([]byte("1,\"a,b\nc\"\n2,\n3,\"\"\n"), uint8(1), uint16(7))
	f.Add([]byte("1\t{1,\"2\"}\n"), uint8(3), uint16(4))
	f.Add(binaryData([][]byte{{0, 0, 0, 7}, []byte("seven")}, [][]byte{nil, nil}), uint8(2), uint16(22))
	f.Fuzz(func(t *testing.T, data []byte, format uint8, split uint16) {
		opts := []copyin.Options{textOpts, csvOpts, binaryOpts}[format%3]
		cols := intText
		if format&4 != 0 {
			cols = intList
		}
		whole, rows, err := parse(opts, cols, data)
		at := int(split) % (len(data) + 1)
		split1, rows1, err1 := parse(opts, cols, data[:at], data[at:])
		if whole != split1 || rows != rows1 || errString(err) != errString(err1) {
			t.Fatalf("split at %d: wrote %q, %d rows, %v; in one payload %q, %d rows, %v", at, split1, rows1, err1, whole, rows, err)
		}
		if err != nil {
			var se *sqlstate.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v, want a *sqlstate.Error", err, err)
			}
			return
		}
		r := csv.NewReader(bytes.NewReader([]byte(whole)))
		r.FieldsPerRecord = 2
		records, err := r.ReadAll()
		if err != nil || int64(len(records)) != rows {
			t.Fatalf("output %q: %d records, %v; want %d", whole, len(records), err, rows)
		}
	})
}

func errString(err error) string {
	var se *sqlstate.Error
	if errors.As(err, &se) {
		return string(se.Code) + " " + se.Message + " @ " + se.Where
	}
	if err != nil {
		return err.Error()
	}
	return ""
}
