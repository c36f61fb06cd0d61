//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/mallard/mallard/sqlfront"
)

// anyArrayTable has one column per array element type a client sends to
// x = ANY($1); row 1 matches every case's array, row 2 none.
const anyArrayTable = `CREATE TABLE t (id int, t_text text, t_varchar varchar(10), t_date date,
	t_numeric numeric(10,2), t_uuid uuid, t_bool bool, t_float float8, t_int int);
INSERT INTO t VALUES
	(1, 'a', 'a', '2024-01-01', 1.5, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', true, 2.5, 7),
	(2, 'b', 'b', '2024-01-02', 2.5, 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', false, 3.5, 9)`

type anyArrayCase struct {
	col string
	arg any
	oid uint32 // the array type Postgres infers for $1
}

func anyArrayCases(t *testing.T) []anyArrayCase {
	var num pgtype.Numeric
	if err := num.Scan("1.50"); err != nil {
		t.Fatal(err)
	}
	uuid := pgtype.UUID{Bytes: [16]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}, Valid: true}
	return []anyArrayCase{
		{"t_text", []string{"a", "zz"}, pgtype.TextArrayOID},
		{"t_varchar", []string{"a", "zz"}, pgtype.TextArrayOID},
		{"t_date", []time.Time{time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}, pgtype.DateArrayOID},
		{"t_numeric", []pgtype.Numeric{num}, pgtype.NumericArrayOID},
		{"t_uuid", []pgtype.UUID{uuid}, pgtype.UUIDArrayOID},
		{"t_bool", []bool{true}, pgtype.BoolArrayOID},
		{"t_float", []float64{2.5}, pgtype.Float8ArrayOID},
		{"t_int", []int32{7, 8}, pgtype.Int4ArrayOID},
	}
}

// TestAnyArrayParam sends an array parameter to x = ANY($1) for each
// column type, in every pgx exec mode: untyped text (exec), the type the
// server describes in binary (cache_statement, cache_describe,
// describe_exec) and a literal inlined in the text (simple).
func TestAnyArrayParam(t *testing.T) {
	for _, m := range execModes {
		t.Run(m.name, func(t *testing.T) {
			conn := connect(t, startServer(t, sqlfront.Config{}), m.mode)
			mustExec(t, conn, anyArrayTable)
			for _, tt := range anyArrayCases(t) {
				ids, err := queryIDs(conn, "SELECT id FROM t WHERE "+tt.col+" = ANY($1) ORDER BY id", tt.arg)
				if err != nil || fmt.Sprint(ids) != "[1]" {
					t.Errorf("%s = ANY(%v): ids %v, %v; want [1]", tt.col, tt.arg, ids, err)
				}
				ids, err = queryIDs(conn, "SELECT id FROM t WHERE "+tt.col+" <> ALL($1) ORDER BY id", tt.arg)
				if err != nil || fmt.Sprint(ids) != "[2]" {
					t.Errorf("%s <> ALL(%v): ids %v, %v; want [2]", tt.col, tt.arg, ids, err)
				}
			}
		})
	}
}

// TestAnyArrayParamDescribed checks that the server describes an untyped
// $1 of x = ANY($1) as an array of x's type, as Postgres does: pgx and
// pgjdbc encode the parameter by that type.
func TestAnyArrayParamDescribed(t *testing.T) {
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeExec)
	mustExec(t, conn, anyArrayTable)
	for _, tt := range anyArrayCases(t) {
		sd, err := conn.Prepare(context.Background(), "", "SELECT id FROM t WHERE "+tt.col+" = ANY($1)")
		if err != nil {
			t.Errorf("%s: %v", tt.col, err)
			continue
		}
		if len(sd.ParamOIDs) != 1 || sd.ParamOIDs[0] != tt.oid {
			t.Errorf("%s = ANY($1): parameter types %v, want [%d]", tt.col, sd.ParamOIDs, tt.oid)
		}
	}
}

// TestAnyArrayParamDeclared sends each array with its type declared and
// with none, in text and in binary format, as psycopg, pgjdbc and
// node-postgres do.
func TestAnyArrayParamDeclared(t *testing.T) {
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeExec)
	mustExec(t, conn, anyArrayTable)
	for _, tt := range anyArrayCases(t) {
		for _, format := range []int16{pgtype.TextFormatCode, pgtype.BinaryFormatCode} {
			value, err := conn.TypeMap().Encode(tt.oid, format, tt.arg, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, declared := range []uint32{tt.oid, 0} {
				if declared == 0 && format == pgtype.BinaryFormatCode {
					continue // a binary value needs its type
				}
				sql := "SELECT id FROM t WHERE " + tt.col + " = ANY($1) ORDER BY id"
				res := conn.PgConn().ExecParams(context.Background(), sql, [][]byte{value}, []uint32{declared}, []int16{format}, nil).Read()
				got := ""
				for _, row := range res.Rows {
					got += string(row[0])
				}
				if res.Err != nil || got != "1" {
					t.Errorf("%s = ANY(%q) declared %d, format %d: ids %q, %v; want 1", tt.col, value, declared, format, got, res.Err)
				}
			}
		}
	}
}

// TestAnyArrayParamNulls checks Postgres' NULL semantics: no element equal
// and a NULL element make x = ANY NULL, so NOT of it selects nothing.
func TestAnyArrayParamNulls(t *testing.T) {
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeExec)
	mustExec(t, conn, anyArrayTable)
	tests := []struct {
		sql  string
		arg  any
		want string
	}{
		{"SELECT id FROM t WHERE NOT (t_text = ANY($1)) ORDER BY id", []*string{nil, ptr("a")}, "[]"},
		{"SELECT id FROM t WHERE NOT (t_text = ANY($1)) ORDER BY id", []string{"a"}, "[2]"},
		{"SELECT id FROM t WHERE t_text = ANY($1) IS NULL ORDER BY id", []*string{nil, ptr("a")}, "[2]"},
		{"SELECT id FROM t WHERE t_int = ANY($1) ORDER BY id", []int32{}, "[]"},
		{"SELECT id FROM t WHERE t_int > ANY($1) ORDER BY id", []int32{8}, "[2]"},
		{"SELECT id FROM t WHERE t_date < ALL($1) ORDER BY id", []string{"2024-01-02", "2024-02-01"}, "[1]"},
	}
	for _, tt := range tests {
		ids, err := queryIDs(conn, tt.sql, tt.arg)
		if err != nil || fmt.Sprint(ids) != tt.want {
			t.Errorf("%s with %v: ids %v, %v; want %s", tt.sql, tt.arg, ids, err, tt.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func queryIDs(conn *pgx.Conn, sql string, args ...any) ([]int32, error) {
	rows, err := conn.Query(context.Background(), sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int32])
}
