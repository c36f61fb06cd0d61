package pgcodec_test

import (
	"context"
	"encoding/hex"
	"math/big"
	"os"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/mallard/mallard/sqlfront/pgcodec"
)

func allCases() []encodeCase {
	var all []encodeCase
	for _, group := range [][]encodeCase{scalarCases(), floatCases(), stringCases(), temporalCases(), arrayCases(), jsonCases(), aliasCases()} {
		all = append(all, group...)
	}
	return all
}

func TestEncode(t *testing.T) {
	for _, c := range allCases() {
		t.Run(c.name, func(t *testing.T) {
			if got := string(encode(t, c.typ, pgcodec.FormatText, c.arr, 0)); got != c.text {
				t.Errorf("text = %q, want %q", got, c.text)
			}
			if got := hex.EncodeToString(encode(t, c.typ, pgcodec.FormatBinary, c.arr, 0)); got != c.bin {
				t.Errorf("binary = %s, want %s", got, c.bin)
			}
		})
	}
}

// TestEncodeAppends checks that encoders append to dst rather than
// overwrite it.
func TestEncodeAppends(t *testing.T) {
	for _, c := range allCases() {
		for _, format := range []int16{pgcodec.FormatText, pgcodec.FormatBinary} {
			enc, err := pgcodec.NewEncoder(c.typ, format)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			alone := enc(nil, c.arr, 0)
			got := enc([]byte("prefix"), c.arr, 0)
			if string(got) != "prefix"+string(alone) {
				t.Errorf("%s format %d: appended %q, want %q", c.name, format, got, "prefix"+string(alone))
			}
		}
	}
}

// TestBinaryDecodesLikeText decodes each binary output and the matching
// text with pgx's pgtype, an independent decoder, and requires the same
// Go value from both. pgtype has no timetz codec, so timetz is skipped.
func TestBinaryDecodesLikeText(t *testing.T) {
	m := pgtype.NewMap()
	for _, c := range allCases() {
		oid := pgcodec.TypeFor(c.typ).OID
		if _, ok := m.TypeForOID(oid); !ok {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			bin := append([]byte{}, encode(t, c.typ, pgcodec.FormatBinary, c.arr, 0)...)
			var fromBin, fromText any
			if err := m.Scan(oid, pgtype.BinaryFormatCode, bin, &fromBin); err != nil {
				t.Fatalf("pgtype binary decode: %v", err)
			}
			if err := m.Scan(oid, pgtype.TextFormatCode, []byte(c.text), &fromText); err != nil {
				t.Fatalf("pgtype text decode: %v", err)
			}
			if b, txt := comparable(fromBin), comparable(fromText); !reflect.DeepEqual(b, txt) {
				t.Errorf("binary decodes to %#v, text to %#v", b, txt)
			}
		})
	}
}

// comparable maps what pgtype decodes to a value reflect.DeepEqual can
// compare: NaN becomes a string, and a numeric its exact rational value,
// since pgtype keeps the display scale of text but not of binary zero.
func comparable(v any) any {
	switch v := v.(type) {
	case float64:
		if v != v {
			return "NaN"
		}
	case float32:
		if v != v {
			return "NaN"
		}
	case pgtype.Numeric:
		if !v.Valid || v.NaN || v.InfinityModifier != pgtype.Finite {
			return v
		}
		r := new(big.Rat).SetInt(v.Int)
		scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(v.Exp))), nil))
		if v.Exp < 0 {
			return r.Quo(r, scale).RatString()
		}
		return r.Mul(r, scale).RatString()
	case []any:
		out := make([]any, len(v))
		for k, e := range v {
			out[k] = comparable(e)
		}
		return out
	}
	return v
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestEncodeMatchesPostgres re-checks the recorded expectations against a
// real PostgreSQL 15 when MALLARD_TEST_POSTGRES names one, for example
// "host=127.0.0.1 port=5432 user=postgres sslmode=disable".
func TestEncodeMatchesPostgres(t *testing.T) {
	dsn := os.Getenv("MALLARD_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MALLARD_TEST_POSTGRES is not set: CI runs this test through scripts/with-postgres.sh")
		}
		t.Skip("MALLARD_TEST_POSTGRES not set (make test sets it)")
	}
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	setup := "SET DateStyle = 'ISO, MDY'; SET IntervalStyle = postgres; SET TimeZone = 'UTC'; SET extra_float_digits = 1"
	if _, err := conn.Exec(ctx, setup).ReadAll(); err != nil {
		t.Fatal(err)
	}
	for _, c := range allCases() {
		text, desc := queryPostgres(t, conn, c.pg, pgtype.TextFormatCode)
		bin, _ := queryPostgres(t, conn, c.pg, pgtype.BinaryFormatCode)
		if string(text) != c.text || hex.EncodeToString(bin) != c.bin {
			t.Errorf("%s: PostgreSQL sends text %q binary %q, recorded %q %q",
				c.name, text, hex.EncodeToString(bin), c.text, c.bin)
		}
		want := pgcodec.TypeFor(c.typ)
		if desc.DataTypeOID != want.OID || desc.TypeModifier != -1 && desc.TypeModifier != want.Typmod {
			t.Errorf("%s: PostgreSQL type %d typmod %d, TypeFor %+v", c.name, desc.DataTypeOID, desc.TypeModifier, want)
		}
	}
}

func queryPostgres(t *testing.T, conn *pgconn.PgConn, expr string, format int16) ([]byte, pgconn.FieldDescription) {
	t.Helper()
	res := conn.ExecParams(context.Background(), "SELECT "+expr, nil, nil, nil, []int16{format}).Read()
	if res.Err != nil || len(res.Rows) != 1 {
		t.Fatalf("SELECT %s: %v", expr, res.Err)
	}
	return res.Rows[0][0], res.FieldDescriptions[0]
}
