package pgcodec_test

import (
	"testing"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

var (
	tJSONB = sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasJSONB}
	tMoney = sqltype.Type{ID: sqltype.Decimal, Width: 18, Scale: 2, Alias: sqltype.AliasMoney}
)

// aliasCases are values of the types storage registers as aliases whose
// text differs from their base type's: jsonb, printed in its normalized
// form whatever JSON text DuckDB holds, and money, a DECIMAL(18,2) of
// cents.
func aliasCases() []encodeCase {
	return []encodeCase{
		{"jsonb object", tJSONB, strArr(`{"b":1, "a": [1, 2], "a": {"yy": null, "x": true}}`),
			`'{"b":1, "a": [1, 2], "a": {"yy": null, "x": true}}'::jsonb`, `{"a": {"x": true, "yy": null}, "b": 1}`,
			"017b2261223a207b2278223a20747275652c20227979223a206e756c6c7d2c202262223a20317d"},
		{"jsonb numbers and strings", tJSONB, strArr(`[1.50, 1e2, -0, 0.0, 2E-2, "\u0041\n\t\/\u0001", 1e-3]`),
			`'[1.50, 1e2, -0, 0.0, 2E-2, "\u0041\n\t\/\u0001", 1e-3]'::jsonb`, `[1.50, 100, 0, 0.0, 0.02, "A\n\t/\u0001", 0.001]`,
			"015b312e35302c203130302c20302c20302e302c20302e30322c2022415c6e5c742f5c7530303031222c20302e3030315d"},
		{"jsonb string", tJSONB, strArr(` "x" `), `'"x"'::jsonb`, `"x"`, "01227822"},
		{"jsonb empty object", tJSONB, strArr(`{ }`), `'{}'::jsonb`, `{}`, "017b7d"},
		{"jsonb keys by length", tJSONB, strArr(`{"aa":1,"b":{"d":[],"c":{}}}`), `'{"aa":1,"b":{"d":[],"c":{}}}'::jsonb`,
			`{"b": {"c": {}, "d": []}, "aa": 1}`, "017b2262223a207b2263223a207b7d2c202264223a205b5d7d2c20226161223a20317d"},
		{"jsonb exponent", tJSONB, strArr(`-12.5e+1`), `'-12.5e+1'::jsonb`, `-125`, "012d313235"},
		{"money", tMoney, decArr(18, 2, "1250"), `12.5::money`, "$12.50", "00000000000004e2"},
		{"money negative", tMoney, decArr(18, 2, "-100"), `'-1'::money`, "-$1.00", "ffffffffffffff9c"},
		{"money thousands", tMoney, decArr(18, 2, "123456789"), `1234567.89::money`, "$1,234,567.89", "00000000075bcd15"},
		{"money zero", tMoney, decArr(18, 2, "0"), `0::money`, "$0.00", "0000000000000000"},
		{"money cents", tMoney, decArr(18, 2, "-5"), `'-0.05'::money`, "-$0.05", "fffffffffffffffb"},
		{"money large", tMoney, decArr(18, 2, "99999999999999"), `999999999999.99::money`, "$999,999,999,999.99", "00005af3107a3fff"},
	}
}

// TestJSONBText checks jsonb's text form on the spellings of JSON DuckDB
// may hold, as PostgreSQL 15 prints the same JSON read as jsonb, and that
// text that is not JSON goes out as it is.
func TestJSONBText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"negative zero", `-0.0`, `0.0`},
		{"exponent", `1.0E+2`, `100`},
		{"negative exponent", `100e-2`, `1.00`},
		{"trailing zeros", `0.00100`, `0.00100`},
		{"surrogate pair", `"\ud83d\ude00"`, `"😀"`},
		{"empty nested", `[[],{}]`, `[[], {}]`},
		{"duplicate keys", `{"a":1,"b":2,"a":3}`, `{"a": 3, "b": 2}`},
		{"escapes", `"\b\f\r\u001f\"\\"`, `"\b\f\r\u001f\"\\"`},
		{"raw control character", "\"a\x01b\"", `"a\u0001b"`},
		{"huge exponent kept", `[1e2000]`, `[1e2000]`},
		{"not JSON", `{"a":`, `{"a":`},
		{"trailing text", `[1] x`, `[1] x`},
		{"bad escape", `"\x"`, `"\x"`},
	} {
		if got := string(encode(t, tJSONB, pgcodec.FormatText, strArr(tc.in), 0)); got != tc.want {
			t.Errorf("%s: %q prints %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
