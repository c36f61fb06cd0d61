package memengine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/sqlfront/internal/memengine"
	"github.com/mallard/mallard/sqlstate"
)

// TestStatements checks what memengine runs (the fuzzers' constants, the
// wire-only scripts' statements, the server's metadata queries): their
// columns, parameters and rows after Bind, and what it refuses.
func TestStatements(t *testing.T) {
	tests := []struct {
		name, query string
		args        []any
		wantCols    string // name:type ID, ...
		wantParams  int
		want        [][]string
		wantCode    sqlstate.Code
	}{
		{"integer", "SELECT 1", nil, "?column?:4", 0, [][]string{{"1"}}, ""},
		{"constants", "select -7 , 'it''s', 'a,b'", nil, "?column?:4 ?column?:17 ?column?:17", 0, [][]string{{"-7", "it's", "a,b"}}, ""},
		{"aliases", "SELECT 1 AS one, 'x' AS s", nil, "one:4 s:17", 0, [][]string{{"1", "x"}}, ""},
		{"metadata", "SELECT coalesce(a, b), c FROM duckdb_sequences() WHERE x", nil, "column0:17 column1:17", 0, nil, ""},
		{"parameters", "SELECT $1::INTEGER AS n, $2::varchar AS s, $3::BIGINT AS b, $1::INT4",
			[]any{int32(41), "hi", "7"}, "n:4 s:17 b:5 ?column?:4", 3, [][]string{{"41", "hi", "7", "41"}}, ""},
		{"null parameter", "SELECT $1::TEXT AS t", []any{nil}, "t:17", 1, [][]string{{"(null)"}}, ""},
		{"values", "VALUES (0, 'a'), (1, NULL),(2,'c')", nil, "col0:4 col1:17", 0,
			[][]string{{"0", "a"}, {"1", "(null)"}, {"2", "c"}}, ""},
		{"text parameter not an integer", "SELECT $1::INTEGER", []any{"x"}, "?column?:4", 1, nil, sqlstate.InvalidTextRepresentation},
		{"parameter out of range", "SELECT $1::INTEGER", []any{int64(1) << 40}, "?column?:4", 1, nil, sqlstate.NumericValueOutOfRange},
		{"parameter without a cast", "SELECT $1", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"parameter skipped", "SELECT $2::TEXT", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"parameter cast two ways", "SELECT $1::TEXT, $1::INTEGER", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"unknown cast", "SELECT $1::DATE", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"values of mixed types", "VALUES (1), ('a')", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"values of unequal rows", "VALUES (1), (2, 3)", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"values null first", "VALUES (NULL), (1)", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"trailing comma", "SELECT 1,", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"column", "SELECT a FROM t", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"integer too large", "SELECT 4294967296", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"unterminated string", "SELECT 'a", nil, "", 0, nil, sqlstate.FeatureNotSupported},
		{"not a select", "INSERT INTO t VALUES (1)", nil, "", 0, nil, sqlstate.FeatureNotSupported},
	}
	ctx := context.Background()
	conn, err := memengine.New(t.TempDir()).Connect()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := statementRows(ctx, conn, tt.query, tt.args, tt.wantCols, tt.wantParams)
			if tt.wantCode != "" {
				var se *sqlstate.Error
				if !errors.As(err, &se) || se.Code != tt.wantCode {
					t.Fatalf("%q = %v, want %s", tt.query, err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(rows) != fmt.Sprint(tt.want) {
				t.Errorf("rows %q, want %q", rows, tt.want)
			}
		})
	}
}

// statementRows prepares query, checks its columns and parameter count,
// binds args and returns the rows as text.
func statementRows(ctx context.Context, conn sqlfront.Conn, query string, args []any, wantCols string, wantParams int) ([][]string, error) {
	st, err := conn.Prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var cols []string
	for _, c := range st.Columns() {
		cols = append(cols, fmt.Sprintf("%s:%d", c.Name, c.Type.ID))
	}
	if got := strings.Join(cols, " "); got != wantCols || len(st.Params()) != wantParams {
		return nil, fmt.Errorf("columns %q and %d parameters, want %q and %d", got, len(st.Params()), wantCols, wantParams)
	}
	if err := st.Bind(args); err != nil {
		return nil, err
	}
	rows, err := st.Query(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var got [][]string
	for rows.Next() {
		b := rows.Batch()
		for r := range int(b.NumRows()) {
			var row []string
			for c := range int(b.NumCols()) {
				row = append(row, b.Column(c).ValueStr(r))
			}
			got = append(got, row)
		}
	}
	return got, rows.Err()
}
