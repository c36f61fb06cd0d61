//go:build duckdb_arrow

package prep

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
)

// TestScalerStore saves, replaces, loads and drops scalers in mlops.scalers.
func TestScalerStore(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for range 2 { // a database that has the store already keeps it
		if err := CreateScalerStore(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	want := scale.Scaler{Method: scale.SignedLogZScore, Stats: scale.PerColumn, Columns: []string{"a", "b"}, Mean: []float64{1, 2}, Std: []float64{3, 4}}
	saved := SavedScaler{Name: "s", Scaler: scale.Scaler{Method: scale.SignedLogZScore, Stats: scale.PerColumn, Columns: []string{"x"}, Mean: []float64{0}, Std: []float64{1}},
		TimeColumns: []string{"year"}, TrainFraction: 0.7, TrainRows: 7, TotalRows: 10, Source: "t", Fingerprint: "f"}
	if err := SaveScaler(ctx, db, saved); err != nil {
		t.Fatal(err)
	}
	saved.Scaler = want
	if err := SaveScaler(ctx, db, saved); err != nil { // replaces
		t.Fatal(err)
	}
	got, err := LoadScaler(ctx, db, "unscale", "s")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("LoadScaler = %+v, %v; want %+v", got, err, want)
	}
	_, err = LoadScaler(ctx, db, "unscale", "it's")
	var e *sqlstate.Error
	if !errors.As(err, &e) || e.Code != sqlstate.UndefinedObject || e.Message != "unscale: scaler 'it''s' does not exist" {
		t.Fatalf("LoadScaler of a missing scaler: %v", err)
	}
	if _, err := db.ExecContext(ctx, "CREATE TABLE mlops.models (scaler VARCHAR, status VARCHAR)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO mlops.models VALUES ('s', 'failed'), ('s', 'ready')"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		delete string
		left   int
	}{{"", 1}, {"DELETE FROM mlops.models WHERE status = 'ready'", 0}} {
		if tc.delete != "" {
			if _, err := db.ExecContext(ctx, tc.delete); err != nil {
				t.Fatal(err)
			}
		}
		if err := DropUnlinkedScaler(ctx, db, "s"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM mlops.scalers").Scan(&n); err != nil || n != tc.left {
			t.Fatalf("after DropUnlinkedScaler (%q): %d scalers, %v; want %d", tc.delete, n, err, tc.left)
		}
	}
}
