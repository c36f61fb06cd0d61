package pgcodec_test

import (
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
)

func textParams() []paramCase {
	return []paramCase{
		{"int4", pgtype.Int4OID, []byte("42"), "42", "INTEGER", ""},
		{"text", pgtype.TextOID, []byte("it's"), "it's", "VARCHAR", ""},
		{"unknown", 0, []byte("x"), "x", "VARCHAR", ""},
		{"numeric", pgtype.NumericOID, []byte("-1.50"), "-1.50", "DECIMAL(4,2)", ""},
		{"bytea hex", pgtype.ByteaOID, []byte(`\x0102fF`), []byte{1, 2, 0xff}, "BLOB", ""},
		{"bytea hex with spaces", pgtype.ByteaOID, []byte("\\x01 02\n"), []byte{1, 2}, "BLOB", ""},
		{"bytea hex empty", pgtype.ByteaOID, []byte(`\x`), []byte{}, "BLOB", ""},
		{"bytea escape", pgtype.ByteaOID, []byte(`a\\b\001\377`), []byte("a\\b\x01\xff"), "BLOB", ""},
		{"bool on", pgtype.BoolOID, []byte("on"), "true", "BOOLEAN", ""},
		{"bool OFF", pgtype.BoolOID, []byte(" OFF "), "false", "BOOLEAN", ""},
		{"bool t", pgtype.BoolOID, []byte("t"), "true", "BOOLEAN", ""},
		{"bool ye", pgtype.BoolOID, []byte("ye"), "true", "BOOLEAN", ""},
		{"bool n", pgtype.BoolOID, []byte("n"), "false", "BOOLEAN", ""},
		{"bool 0", pgtype.BoolOID, []byte("0"), "false", "BOOLEAN", ""},
		{"date", pgtype.DateOID, []byte("2020-01-01"), "2020-01-01", "DATE", ""},
		{"date BC", pgtype.DateOID, []byte("0044-03-15 BC"), "0044-03-15 (BC)", "DATE", ""},
		{"timestamp BC", pgtype.TimestampOID, []byte("0044-03-15 12:00:00 BC"), "0044-03-15 (BC) 12:00:00", "TIMESTAMP", ""},
		{"timestamptz BC", pgtype.TimestamptzOID, []byte("0001-01-01 00:00:00+00 bc"), "0001-01-01 (BC) 00:00:00+00", "TIMESTAMPTZ", ""},
		{"timestamptz", pgtype.TimestamptzOID, []byte("2020-01-01 01:02:03.5+00"), "2020-01-01 01:02:03.5+00", "TIMESTAMPTZ", ""},
		{"interval", pgtype.IntervalOID, []byte("1 year 2 mons 3 days 04:05:06.789"), "1 year 2 mons 3 days 04:05:06.789", "INTERVAL", ""},
		{"interval with plus", pgtype.IntervalOID, []byte("-1 mons +1 day -01:00:00"), "-1 mons 1 day -01:00:00", "INTERVAL", ""},
		{"interval plus first", pgtype.IntervalOID, []byte("+1 day"), "1 day", "INTERVAL", ""},
		{"int4[]", pgtype.Int4ArrayOID, []byte("{1,2,NULL}"), `["1", "2", NULL]`, "INTEGER[]", ""},
		{"int4[] empty", pgtype.Int4ArrayOID, []byte(" {} "), `[]`, "INTEGER[]", ""},
		{"int4[][]", pgtype.Int4ArrayOID, []byte("{{1,2},{3,4}}"), `[["1", "2"], ["3", "4"]]`, "INTEGER[][]", ""},
		{"int4[] with bounds", pgtype.Int4ArrayOID, []byte("[0:1]={1,2}"), `["1", "2"]`, "INTEGER[]", ""},
		{"text[]", pgtype.TextArrayOID, []byte(`{"a b","",x\"y, spaced out ,NULL,"NULL",null}`), `["a b", "", "x\"y", "spaced out", NULL, "NULL", NULL]`, "VARCHAR[]", ""},
		{"text[] escapes", pgtype.TextArrayOID, []byte(`{"c\\d","it's",\ lead}`), `["c\\d", "it's", " lead"]`, "VARCHAR[]", ""},
		{"bool[]", pgtype.BoolArrayOID, []byte("{t,f,NULL}"), `["true", "false", NULL]`, "BOOLEAN[]", ""},
		{`"char"[]`, pgtype.QCharArrayOID, []byte(`{r,p,""}`), `["r", "p", ""]`, "VARCHAR[]", ""},
		{"name[]", pgtype.NameArrayOID, []byte(`{public,"my schema"}`), `["public", "my schema"]`, "VARCHAR[]", ""},
		{"bytea[]", pgtype.ByteaArrayOID, []byte(`{"\\x01ff","\\x"}`), `["\\x01ff", "\\x"]`, "BLOB[]", ""},
		{"date[]", pgtype.DateArrayOID, []byte(`{2020-01-01,"0044-03-15 BC"}`), `["2020-01-01", "0044-03-15 (BC)"]`, "DATE[]", ""},
		{"timestamptz[]", pgtype.TimestamptzArrayOID, []byte(`{"2020-01-01 00:00:00+00"}`), `["2020-01-01 00:00:00+00"]`, "TIMESTAMPTZ[]", ""},
		{"interval[]", pgtype.IntervalArrayOID, []byte(`{"1 day 02:00:00","-1 days +02:00:00"}`), `["1 day 02:00:00", "-1 days 02:00:00"]`, "INTERVAL[]", ""},
		{"numeric[]", pgtype.NumericArrayOID, []byte(`{1.5,-2}`), `["1.5", "-2"]`, "DECIMAL(4,2)[]", ""},
		{"uuid[]", pgtype.UUIDArrayOID, []byte(`{550e8400-e29b-41d4-a716-446655440000}`), `["550e8400-e29b-41d4-a716-446655440000"]`, "UUID[]", ""},
		{"json[]", pgtype.JSONArrayOID, []byte(`{"{\"a\": [1]}",NULL,"\"s\""}`), `[{"a": [1]}, null, "s"]`, "JSON[]", ""},
	}
}

func badTextParams() []paramCase {
	bad := sqlstate.InvalidTextRepresentation
	return []paramCase{
		{"bytea odd hex", pgtype.ByteaOID, []byte(`\x012`), nil, "", bad},
		{"bytea bad hex", pgtype.ByteaOID, []byte(`\xzz`), nil, "", bad},
		{"bytea bad escape", pgtype.ByteaOID, []byte(`\9`), nil, "", bad},
		{"bytea octal out of range", pgtype.ByteaOID, []byte(`\400`), nil, "", bad},
		{"bytea trailing backslash", pgtype.ByteaOID, []byte(`a\`), nil, "", bad},
		{"bool o", pgtype.BoolOID, []byte("o"), nil, "", bad},
		{"bool maybe", pgtype.BoolOID, []byte("maybe"), nil, "", bad},
		{"bool empty", pgtype.BoolOID, []byte(""), nil, "", bad},
		{"text not UTF-8", pgtype.TextOID, []byte{'a', 0xff}, nil, "", bad},
		{"array unterminated", pgtype.Int4ArrayOID, []byte("{1,2"), nil, "", bad},
		{"array without braces", pgtype.Int4ArrayOID, []byte("1,2"), nil, "", bad},
		{"array junk after", pgtype.Int4ArrayOID, []byte("{1}}"), nil, "", bad},
		{"array unterminated quote", pgtype.TextArrayOID, []byte(`{"a}`), nil, "", bad},
		{"array quote inside element", pgtype.TextArrayOID, []byte(`{a"b}`), nil, "", bad},
		{"array empty element", pgtype.TextArrayOID, []byte(`{a,,b}`), nil, "", bad},
		{"array too deep", pgtype.Int4ArrayOID, []byte("{{{{{{{1}}}}}}}"), nil, "", bad},
		{"array bounds without =", pgtype.Int4ArrayOID, []byte("[1:2]{1,2}"), nil, "", bad},
		{"array bad bytea element", pgtype.ByteaArrayOID, []byte(`{"\\x1"}`), nil, "", bad},
		{"array bad bool element", pgtype.BoolArrayOID, []byte(`{maybe}`), nil, "", bad},
	}
}

func TestDecodeParamText(t *testing.T) {
	runParamCases(t, pgcodec.FormatText, textParams())
	runParamCases(t, pgcodec.FormatText, badTextParams())
}
