//go:build duckdb_arrow

package functions_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// columnOIDs are the type OIDs of query's result columns, by name.
func columnOIDs(t *testing.T, conn *pgx.Conn, query string) map[string]uint32 {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]uint32{}
	for _, f := range rows.FieldDescriptions() {
		out[f.Name] = f.DataTypeOID
	}
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// TestClassifierLabelTypes: a classifier of an INTEGER label predicts
// integers, of a BOOLEAN label booleans, of a VARCHAR label text: predict's
// prediction and confusion_matrix's classes have the label's type OID,
// and the values compare equal to the label.
func TestClassifierLabelTypes(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, `CREATE TABLE thirds AS SELECT CAST(i % 3 AS INTEGER) AS n, i % 3 = 0 AS b, CAST(i % 3 AS VARCHAR) AS s,
		i % 3 + 0.1 * sin(i) AS x FROM range(300) r(i)`)
	for _, tt := range []struct {
		label string
		oid   uint32
	}{{"n", pgtype.Int4OID}, {"b", pgtype.BoolOID}, {"s", pgtype.TextOID}} {
		exec(t, conn, "SELECT * FROM train_classifier('SELECT x, "+tt.label+" FROM thirds', label := '"+tt.label+
			"', model := 'm_"+tt.label+"', epochs := 40, lr := 0.02)")
		pred := "SELECT * FROM predict('m_" + tt.label + "', source := 'thirds')"
		if got := columnOIDs(t, conn, pred)["prediction"]; got != tt.oid {
			t.Errorf("label %s: prediction has type OID %d, want %d", tt.label, got, tt.oid)
		}
		cm := columnOIDs(t, conn, "SELECT * FROM confusion_matrix('m_"+tt.label+"')")
		if cm["actual"] != tt.oid || cm["predicted"] != tt.oid {
			t.Errorf("label %s: confusion_matrix's classes have type OIDs %d and %d, want %d", tt.label, cm["actual"], cm["predicted"], tt.oid)
		}
		var right, n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE prediction = "+tt.label+"), count(*) FROM predict('m_"+tt.label+"', source := 'thirds')").
			Scan(&right, &n); err != nil {
			t.Fatal(err)
		}
		if n != 300 || right < 280 {
			t.Errorf("label %s: %d of %d predictions equal the label", tt.label, right, n)
		}
		// probabilities is keyed by the class as text, as JSON objects are.
		var p float64
		if err := conn.QueryRow(ctx, "SELECT probabilities[CAST(prediction AS VARCHAR)] FROM predict('m_"+tt.label+"', source := 'thirds') LIMIT 1").Scan(&p); err != nil || p <= 0 || p > 1 {
			t.Errorf("label %s: probabilities[prediction] is %g (%v)", tt.label, p, err)
		}
	}
	// evaluate's per-class figures are keyed by the class as text and
	// reach pgx as a JSON object.
	var recall map[string]float64
	if err := conn.QueryRow(ctx, "SELECT recall FROM evaluate('m_n') WHERE served").Scan(&recall); err != nil || len(recall) != 3 || recall["2"] < 0.9 {
		t.Errorf("evaluate('m_n'): recall %v (%v), want 3 classes and at least 0.9 for class 2", recall, err)
	}
	var cells int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM confusion_matrix('m_n') WHERE actual + predicted = 4").Scan(&cells); err != nil || cells != 1 {
		t.Errorf("confusion_matrix('m_n'): %d cells whose classes add up to 4 (%v), want 1 (2 and 2)", cells, err)
	}
}
