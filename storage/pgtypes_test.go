package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
	"github.com/mallard/mallard/storage"
)

// TestMoneyCasts checks the casts of the money alias to and from text,
// which read and print money as PostgreSQL 15 does in the C locale, and
// that text that is not money fails with Postgres' SQLSTATE.
func TestMoneyCasts(t *testing.T) {
	db, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	tests := []struct {
		name, in, want string
		code           sqlstate.Code
	}{
		{"thousands", "$1,234.56", "$1,234.56", ""},
		{"third fraction digit rounds", "12.345", "$12.35", ""},
		{"later digits ignored", "0.0049", "$0.00", ""},
		{"parentheses", "($2)", "-$2.00", ""},
		{"sign after the symbol", " $ -0.05 ", "-$0.05", ""},
		{"trailing sign", "3-", "-$3.00", ""},
		{"empty", "", "$0.00", ""},
		{"large", "9999999999999999.99", "$9,999,999,999,999,999.99", ""},
		{"two points", "1.2.3", "", sqlstate.InvalidTextRepresentation},
		{"letters", "12x", "", sqlstate.InvalidTextRepresentation},
		{"out of range", "99999999999999999999", "", sqlstate.NumericValueOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			err := db.SQL().QueryRowContext(ctx, "SELECT CAST(CAST(? AS pg_money) AS VARCHAR)", tt.in).Scan(&got)
			if tt.code == "" {
				if err != nil || got != tt.want {
					t.Errorf("%q: got %q, %v; want %q", tt.in, got, err, tt.want)
				}
				return
			}
			// The error code is the boundary's: run the cast through a Conn.
			err = c.Exec(ctx, "SELECT CAST('"+tt.in+"' AS pg_money)")
			var e *sqlstate.Error
			if !errors.As(err, &e) || e.Code != tt.code {
				t.Errorf("%q: got %v, want SQLSTATE %s", tt.in, err, tt.code)
			}
		})
	}
	var null bool
	if err := db.SQL().QueryRowContext(ctx, "SELECT TRY_CAST('x' AS pg_money) IS NULL").Scan(&null); err != nil || !null {
		t.Errorf("TRY_CAST of text that is not money: %v, %v; want NULL", null, err)
	}
}

// TestMoneyArithmetic checks that money keeps its value through DECIMAL
// casts and converts to DOUBLE for arithmetic.
func TestMoneyArithmetic(t *testing.T) {
	db, _ := openConn(t, storage.MemoryPath)
	var numeric, sum, scaled string
	err := db.SQL().QueryRowContext(context.Background(), `SELECT
		CAST(CAST(CAST('$1.50' AS pg_money) AS DECIMAL(10,3)) AS VARCHAR),
		CAST(CAST('1.50' AS pg_money) + CAST('2.25' AS pg_money) AS VARCHAR),
		CAST(CAST(CAST('-1.10' AS pg_money) * 3 AS pg_money) AS VARCHAR)`).Scan(&numeric, &sum, &scaled)
	if err != nil {
		t.Fatal(err)
	}
	if numeric != "1.500" || sum != "3.75" || scaled != "-$3.30" {
		t.Errorf("got %q %q %q, want 1.500 3.75 -$3.30", numeric, sum, scaled)
	}
}

// TestStringAliases checks the VARCHAR aliases' conversions: bpchar drops
// its trailing spaces where it becomes VARCHAR, jsonb passes to DuckDB's
// JSON functions, and each value keeps its alias for a front end.
func TestStringAliases(t *testing.T) {
	db, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	var trimmed, concat, extracted string
	var length int64
	err := db.SQL().QueryRowContext(ctx, `SELECT
		CAST(CAST('a  ' AS pg_bpchar) AS VARCHAR), CAST(' b ' AS pg_bpchar) || '|', length(CAST('ab ' AS pg_bpchar)),
		CAST(json_extract(CAST(CAST('{"a":[1, 2]}' AS JSON) AS pg_jsonb), '$.a') AS VARCHAR)`).Scan(&trimmed, &concat, &length, &extracted)
	if err != nil {
		t.Fatal(err)
	}
	if trimmed != "a" || concat != " b|" || length != 2 || extracted != "[1,2]" {
		t.Errorf("got %q %q %d %q, want \"a\" \" b|\" 2 \"[1,2]\"", trimmed, concat, length, extracted)
	}
	st, err := c.Prepare(ctx, "SELECT CAST('a' AS pg_bpchar), CAST(CAST('{}' AS JSON) AS pg_jsonb), CAST('t' AS pg_regclass), CAST(1 AS pg_money)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, want := range []string{sqltype.AliasBPChar, sqltype.AliasJSONB, sqltype.AliasRegClass, sqltype.AliasMoney} {
		if got := st.Columns()[i].Type.Alias; got != want {
			t.Errorf("column %d: alias %q, want %q", i, got, want)
		}
	}
}
