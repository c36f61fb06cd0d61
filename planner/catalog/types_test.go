package catalog_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mallard/mallard/sqlfront/pgcodec"
)

// scalarTypes are DuckDB scalar types of every kind pgcodec presents,
// spelled for CREATE TABLE.
var scalarTypes = []string{
	"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER",
	"UBIGINT", "HUGEINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL(4,1)", "DECIMAL(10,2)",
	"DECIMAL(18,3)", "DECIMAL(38,10)", "VARCHAR", "JSON", "BLOB", "UUID", "DATE", "TIME", "TIMETZ",
	"TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "TIMESTAMPTZ", "INTERVAL", "BIT",
	"BIGNUM", "mood", "pg_name", "pg_char", "pg_varchar", "pg_int2vector_elem", "pg_oidvector_elem",
	"pg_bpchar", "pg_jsonb", "pg_money", "pg_regclass", "pg_regtype", "pg_regproc", "pg_regnamespace",
}

// nestedTypes are DuckDB nested types, presented as arrays or json.
var nestedTypes = []string{
	"INTEGER[3]", "VARCHAR[2]", "INTEGER[][]", "INTEGER[3][2]", "STRUCT(a INTEGER, b VARCHAR)",
	"STRUCT(a INTEGER[])", "STRUCT(a INTEGER)[]", "MAP(VARCHAR, INTEGER)", "MAP(INTEGER, INTEGER)[]",
	"UNION(a INTEGER, b VARCHAR)", "JSON[]",
}

// TestTypesAgreeWithPgcodec checks that pg_attribute describes every column
// with the type and modifier RowDescription gives it: pgcodec.TypeFor of the
// column's type as storage reports it for SELECT * FROM the table.
func TestTypesAgreeWithPgcodec(t *testing.T) {
	var cols []string
	for i, typ := range scalarTypes {
		cols = append(cols, fmt.Sprintf("c%d %s", i, typ), fmt.Sprintf("l%d %s[]", i, typ))
	}
	for i, typ := range nestedTypes {
		cols = append(cols, fmt.Sprintf("n%d %s", i, typ))
	}
	db, conn := session(t,
		`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`,
		"CREATE TABLE every_type ("+strings.Join(cols, ", ")+")")

	ctx := context.Background()
	sc, err := db.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	stmt, err := sc.Prepare(ctx, "SELECT * FROM public.every_type")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()

	got := map[string][]string{}
	for _, r := range rows(t, conn, `
		SELECT a.attname, a.atttypid, a.atttypmod, c.data_type
		FROM mallard_catalog.pg.pg_attribute AS a
		JOIN mallard_catalog.pg.mallard_columns AS c ON c.attrelid = a.attrelid AND c.attnum = a.attnum
		WHERE a.attrelid = mallard_catalog.pg.mallard_regclass('every_type')`) {
		got[r[0]] = r[1:]
	}
	if len(got) != len(stmt.Columns()) {
		t.Fatalf("pg_attribute has %d columns of every_type, the statement %d", len(got), len(stmt.Columns()))
	}
	for _, col := range stmt.Columns() {
		want := pgcodec.TypeFor(col.Type)
		g := got[col.Name]
		if g == nil {
			t.Errorf("%s: not in pg_attribute", col.Name)
			continue
		}
		if g[0] != fmt.Sprint(want.OID) || g[1] != fmt.Sprint(want.Typmod) {
			t.Errorf("%s %s (%s): catalog says oid %s typmod %s, pgcodec %d %d",
				col.Name, col.Type, g[2], g[0], g[1], want.OID, want.Typmod)
		}
	}
}

// TestTypeMacros checks the type macros on DuckDB's spellings directly,
// including the ones a table cannot have.
func TestTypeMacros(t *testing.T) {
	_, conn := session(t)
	for _, tc := range []struct{ dataType, oid, typmod string }{
		{"INTEGER", "23", "-1"},
		{"DECIMAL(10,2)", "1700", "655366"},
		{"DECIMAL(10,2)[]", "1231", "655366"},
		{"DECIMAL(10,2)[][]", "114", "-1"},
		{"UBIGINT", "1700", "1310724"},
		{"HUGEINT[]", "1231", "2555908"},
		{"ENUM('a', 'b')", "25", "-1"},
		{"ENUM('a', 'b]')[]", "1009", "-1"},
		{"STRUCT(a INTEGER[])[]", "114", "-1"},
		{"JSON[]", "199", "-1"},
		{"pg_int2vector_elem[]", "22", "-1"},
		{"pg_oidvector_elem[]", "30", "-1"},
		{"pg_oidvector_elem", "20", "-1"},
		{"pg_int2vector_elem[][]", "114", "-1"},
		{"pg_bpchar[]", "1014", "-1"},
		{"pg_jsonb", "3802", "-1"},
		{"pg_money[]", "791", "-1"},
		{"pg_regclass", "2205", "-1"},
		{"pg_regtype[]", "2211", "-1"},
		{"pg_regproc", "24", "-1"},
		{"pg_regnamespace[]", "4090", "-1"},
		{"NULL", "25", "-1"},
	} {
		r := rows(t, conn, "SELECT mallard_catalog.pg.mallard_type_oid(?), mallard_catalog.pg.mallard_type_typmod(?)", tc.dataType, tc.dataType)
		if r[0][0] != tc.oid || r[0][1] != tc.typmod {
			t.Errorf("%s: got oid %s typmod %s, want %s %s", tc.dataType, r[0][0], r[0][1], tc.oid, tc.typmod)
		}
	}
}

// TestVectorCastRejects checks that text that is not an int2vector or
// oidvector fails the cast from VARCHAR, as PostgreSQL's input functions
// fail.
func TestVectorCastRejects(t *testing.T) {
	_, conn := session(t)
	for _, tc := range []struct{ text, typ, name string }{
		{"1 x", "pg_int2vector_elem[]", "int2vector"},
		{"32768", "pg_int2vector_elem[]", "int2vector"},
		{"1 -", "pg_int2vector_elem[]", "int2vector"},
		{"[1, 2]", "pg_int2vector_elem[]", "int2vector"},
		{"-1", "pg_oidvector_elem[]", "oidvector"},
		{"4294967296", "pg_oidvector_elem[]", "oidvector"},
	} {
		_, err := conn.ExecContext(context.Background(), "SELECT CAST(? AS "+tc.typ+")", tc.text)
		want := "invalid input syntax for type " + tc.name
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CAST(%q AS %s): got error %v, want %q", tc.text, tc.typ, err, want)
		}
	}
}

// TestRegtypeNames checks mallard_regtype_names, which oids::regtype[]
// becomes: each OID by the name regtype shows, in order, and NULL where
// Postgres' regtype[] output has NULL.
func TestRegtypeNames(t *testing.T) {
	_, conn := session(t)
	for _, tc := range []struct{ list, want string }{
		{"[23, 1009, 1043]", "{integer,text[],character varying}"},
		{"[25, NULL, 99999]", "{text,NULL,99999}"},
		{"[]", "{}"},
		{"NULL", "NULL"},
	} {
		r := rows(t, conn, "SELECT mallard_catalog.pg.mallard_regtype_names(CAST("+tc.list+" AS BIGINT[]))")
		if r[0][0] != tc.want {
			t.Errorf("mallard_regtype_names(%s) = %s, want %s", tc.list, r[0][0], tc.want)
		}
	}
	got := rows(t, conn, `SELECT mallard_catalog.pg.mallard_regtype_names(proargtypes)
		FROM mallard_catalog.pg.pg_proc WHERE proname = 'lower'`)
	if len(got) == 0 || got[0][0] != "{text}" {
		t.Errorf("lower's argument types: got %v, want {text}", got)
	}
}
