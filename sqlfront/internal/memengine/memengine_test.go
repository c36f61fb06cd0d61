package memengine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mallard/mallard/sqlfront/internal/memengine"
	"github.com/mallard/mallard/sqlstate"
)

func TestPrepare(t *testing.T) {
	tests := []struct {
		name, query string
		want        []string // the one row's values; nil for no rows
		wantCols    int
		wantCode    sqlstate.Code
	}{
		{"integer", "SELECT 1", []string{"1"}, 1, ""},
		{"constants", "select -7 , 'it''s', 'a,b'", []string{"-7", "it's", "a,b"}, 3, ""},
		{"metadata", "SELECT coalesce(a, b), c FROM duckdb_sequences() WHERE x", nil, 2, ""},
		{"column", "SELECT a FROM t", nil, 0, sqlstate.FeatureNotSupported},
		{"integer too large", "SELECT 4294967296", nil, 0, sqlstate.FeatureNotSupported},
		{"unterminated string", "SELECT 'a", nil, 0, sqlstate.FeatureNotSupported},
		{"not a select", "INSERT INTO t VALUES (1)", nil, 0, sqlstate.FeatureNotSupported},
	}
	ctx := context.Background()
	conn, err := memengine.New(t.TempDir()).Connect()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := conn.Prepare(ctx, tt.query)
			if tt.wantCode != "" {
				var se *sqlstate.Error
				if !errors.As(err, &se) || se.Code != tt.wantCode {
					t.Fatalf("Prepare(%q) = %v, want %s", tt.query, err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if n := len(st.Columns()); n != tt.wantCols {
				t.Errorf("%d columns, want %d", n, tt.wantCols)
			}
			rows, err := st.Query(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				b := rows.Batch()
				for c := range int(b.NumCols()) {
					got = append(got, b.Column(c).ValueStr(0))
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("row %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("value %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}
