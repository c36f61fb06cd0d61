package storage_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// TestByteaIn checks that a string becomes a BLOB as PostgreSQL 15's
// byteain reads it: the hex form and the escape form, in a cast, an
// INSERT, an UPDATE and a comparison, and that text in neither form fails
// with Postgres' SQLSTATE; and that a BLOB becomes text in the hex form.
func TestByteaIn(t *testing.T) {
	db, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	tests := []struct {
		name, in string
		want     []byte
		code     sqlstate.Code
	}{
		{"hex", `\xdeadbeef`, []byte{0xde, 0xad, 0xbe, 0xef}, ""},
		{"hex upper case", `\xDEADBEEF`, []byte{0xde, 0xad, 0xbe, 0xef}, ""},
		{"hex with spaces", "\\x de ad\n", []byte{0xde, 0xad}, ""},
		{"empty hex", `\x`, []byte{}, ""},
		{"plain text", "abc", []byte("abc"), ""},
		{"empty", "", []byte{}, ""},
		{"octal escapes", `a\000\377\\b`, []byte{'a', 0, 0xff, '\\', 'b'}, ""},
		{"odd digits", `\xabc`, nil, sqlstate.InvalidParameterValue},
		{"not hex", `\xzz`, nil, sqlstate.InvalidParameterValue},
		{"DuckDB's escapes", `\xDE\xAD`, nil, sqlstate.InvalidParameterValue},
		{"lone backslash", `a\b`, nil, sqlstate.InvalidTextRepresentation},
		{"octal out of range", `\400`, nil, sqlstate.InvalidTextRepresentation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []byte
			err := db.SQL().QueryRowContext(ctx, "SELECT CAST(CAST(? AS VARCHAR) AS BLOB)", tt.in).Scan(&got)
			if tt.code == "" {
				if err != nil || !bytes.Equal(got, tt.want) {
					t.Errorf("%q: got %x, %v; want %x", tt.in, got, err, tt.want)
				}
				return
			}
			err = c.Exec(ctx, "SELECT CAST('"+tt.in+"' AS BLOB)")
			var e *sqlstate.Error
			if !errors.As(err, &e) || e.Code != tt.code {
				t.Errorf("%q: got %v, want SQLSTATE %s", tt.in, err, tt.code)
			}
		})
	}
	var text string
	if err := db.SQL().QueryRowContext(ctx, `SELECT CAST(CAST('a\\b\000' AS BLOB) AS VARCHAR)`).Scan(&text); err != nil || text != `\x615c6200` {
		t.Errorf("a blob as text: %q, %v; want the hex form \x615c6200", text, err)
	}
	var null bool
	if err := db.SQL().QueryRowContext(ctx, `SELECT TRY_CAST('\xzz' AS BLOB) IS NULL`).Scan(&null); err != nil || !null {
		t.Errorf("TRY_CAST of text that is not bytea: %v, %v; want NULL", null, err)
	}
	for _, q := range []string{
		"CREATE TABLE blobs (id INTEGER, b BLOB)",
		`INSERT INTO blobs VALUES (1, '\xdeadbeef'), (2, 'ab\\c')`,
		`UPDATE blobs SET b = '\x0102' WHERE id = 2`,
	} {
		if err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var id int
	var b []byte
	if err := db.SQL().QueryRowContext(ctx, `SELECT id, b FROM blobs WHERE b = '\xdeadbeef'`).Scan(&id, &b); err != nil ||
		id != 1 || !bytes.Equal(b, []byte{0xde, 0xad, 0xbe, 0xef}) {
		t.Errorf("row with b = '\\xdeadbeef': %d %x, %v", id, b, err)
	}
	if err := db.SQL().QueryRowContext(ctx, `SELECT b FROM blobs WHERE id = 2`).Scan(&b); err != nil || !bytes.Equal(b, []byte{1, 2}) {
		t.Errorf("updated row: %x, %v; want 0102", b, err)
	}
}
