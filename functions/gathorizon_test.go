//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestTrainGATHorizon checks horizon := h: bad values are refused with
// 22023 naming the value, the horizon is recorded in the hyperparameters
// (1 by default), and validation at horizon 12 differs from
// validation one step ahead.
func TestTrainGATHorizon(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	for _, tt := range []struct{ args, message string }{
		{"horizon := 0", "horizon := 0 is out of range"},
		{"horizon := 40", "horizon := 40 is out of range; it must be from 1 to the 12 validation rows"},
		{"horizon := 2, validation_fraction := 0, anchor := 'last_value'", "horizon := 2 is out of range; it must be from 1 to the 0 validation rows"},
	} {
		e := errorCode(t, conn, "SELECT * FROM train_gat('uw', model := 'e', "+tt.args+")")
		if e.Code != "22023" || !strings.Contains(e.Message, tt.message) {
			t.Errorf("%s: got %s %q, want 22023 containing %q", tt.args, e.Code, e.Message, tt.message)
		}
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM mlops.models WHERE name = 'e'"); n != 0 {
		t.Errorf("%d versions stored by refused calls", n)
	}
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'h1', epochs := 3, horizon := 1, seed := 4, compare_graph := false)",
		"SELECT count(*) FROM train_gat('uw', model := 'h12', epochs := 3, horizon := 12, seed := 4, compare_graph := false)",
		"SELECT count(*) FROM train_gat('uw', model := 'hd', epochs := 1, compare_graph := false)")
	for model, want := range map[string]string{"h1": "1", "h12": "12", "hd": "1"} {
		if got := scanOne[string](t, conn, "SELECT hyperparameters->>'horizon' FROM mlops.models WHERE name = '"+model+"'"); got != want {
			t.Errorf("%s: hyperparameters horizon %s, want %s", model, got, want)
		}
	}
	var v1, v12 float64
	if err := conn.QueryRow(ctx, `SELECT (SELECT val_mse FROM train_gat('uw', model := 'a1', epochs := 2, horizon := 1, seed := 4, compare_graph := false) WHERE epoch = 2),
		(SELECT val_mse FROM train_gat('uw', model := 'a12', epochs := 2, horizon := 12, seed := 4, compare_graph := false) WHERE epoch = 2)`).Scan(&v1, &v12); err != nil ||
		!(v1 > 0) || !(v12 > 0) || v1 == v12 {
		t.Errorf("val_mse at horizon 1 %v, at horizon 12 %v (%v): want two different figures", v1, v12, err)
	}
}

// TestNoGraphTwin checks that train_gat trains the network without the
// graph beside the network, says which validates better, and that
// evaluate and forecast serve it as gat_no_graph; compare_graph := false
// trains the network alone.
func TestNoGraphTwin(t *testing.T) {
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'tw', epochs := 4, scaler := 'u', seed := 1, horizon := 12, compare_graph := true)")
	found := false
	for _, n := range notices {
		found = found || strings.Contains(n, "validation MSE over steps 1..12 with the graph ") && strings.Contains(n, "without it (self loops only, gat_no_graph")
	}
	if !found {
		t.Errorf("no NOTICE compares the networks with and without the graph: %q", notices)
	}
	var train, test, val, mse float64
	if err := conn.QueryRow(ctx, "SELECT train_mse, test_mse, val_mse, mse FROM evaluate('tw', horizon := 2) WHERE method = 'gat_no_graph' AND horizon = 1").
		Scan(&train, &test, &val, &mse); err != nil || !(train > 0) || !(test > 0) || !(val > 0) || !(mse > 0) {
		t.Errorf("evaluate's gat_no_graph: train %v test %v val %v mse %v (%v)", train, test, val, mse, err)
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM forecast('tw', steps := 2, method := 'gat_no_graph')"); n != 28 {
		t.Errorf("forecast gat_no_graph: %d rows, want 2 steps x 14 entities", n)
	}
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'alone', epochs := 2)") // compare_graph is off by default
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM evaluate('alone') WHERE method LIKE 'gat_%'"); n != 0 {
		t.Errorf("compare_graph := false: evaluate lists %d other networks", n)
	}
}

// BenchmarkNoGraphTwin times whole train_gat statements on the
// unemployment data with default options, with the twin without the
// graph and without it (compare_graph := false), alternating, and prints
// the medians of 3 and their ratio.
func BenchmarkNoGraphTwin(b *testing.B) {
	conn := connect(b, startServer(b), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(b, conn)
	var on, off []float64
	for i := range 3 {
		for _, twin := range []bool{true, false} {
			began := time.Now()
			exec(b, conn, fmt.Sprintf("SELECT count(*) FROM train_gat('uw', model := 'b%d_%t', scaler := 'u', compare_graph := %t)", i, twin, twin))
			if took := time.Since(began).Seconds(); twin {
				on = append(on, took)
			} else {
				off = append(off, took)
			}
		}
	}
	slices.Sort(on)
	slices.Sort(off)
	b.Logf("train_gat on unemployment, default options: with the twin %.2f s, alone %.2f s (medians of 3, alternating): ratio %.2f",
		on[1], off[1], on[1]/off[1])
}
