//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// anomalyPanel is 16 monthly series of 180 months, each a yearly wave
// around its own level with uniform noise of +-2, into which spikes of
// +-60 and two level shifts of +50 are injected: 12 events in 2,880
// values, rarer than the 1 % that detect_anomalies' default level allows.
const anomalyPanel = `CREATE TABLE ap AS
WITH base AS (
  SELECT e, t, 2000 + t // 12 AS year, t %% 12 + 1 AS month,
    100 + 10 * e + 20 * sin(2 * pi() * t / 12 + e) + ((hash(e * 1000 + t) %% 1000) / 1000.0 - 0.5) * 4 AS v
  FROM range(16) a(e), range(180) b(t))
SELECT 'e' || e AS entity, year, month,
  v + CASE WHEN (e, t) IN %s THEN (CASE WHEN t %% 2 = 0 THEN 60 ELSE -60 END) ELSE 0 END
    + CASE WHEN (e, t) IN %s OR (e = 2 AND t >= 120) OR (e = 5 AND t >= 150) THEN 50 ELSE 0 END AS v
FROM base`

// TestDetectAnomalies trains on a panel with injected spikes and level
// shifts and checks that detect_anomalies finds them: recall and
// precision at least 0.9 over the injected events, where a level shift
// counts as found when its first or second month is flagged, and a flag in
// those two months is not a false one. The lower bound of a series that
// never went negative stays at or above zero, and bad arguments are
// refused naming the value.
func TestDetectAnomalies(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	spikes := [][2]int{{0, 40}, {1, 63}, {3, 90}, {4, 101}, {6, 130}, {7, 77}, {9, 150}, {11, 160}, {13, 171}, {15, 111}}
	var in []string
	for _, s := range spikes {
		in = append(in, fmt.Sprintf("(%d, %d)", s[0], s[1]))
	}
	exec(t, conn, fmt.Sprintf(anomalyPanel, "("+strings.Join(in, ", ")+")", "((-1, -1))"),
		"CREATE TABLE apw AS SELECT * FROM pivot_entity_time('ap', entity := 'entity', time := ['year', 'month'], value := 'v')",
		"CREATE TABLE aps AS SELECT * FROM rescale('apw', save_as := 'aps')",
		"SELECT count(*) FROM train_gat('aps', model := 'anom', scaler := 'aps', seed := 1)")
	rows, err := conn.Query(context.Background(), `SELECT year, month, entity, value, expected, lo, hi, score
		FROM detect_anomalies('anom') WHERE is_anomaly`)
	if err != nil {
		t.Fatal(err)
	}
	type cell struct{ e, t int }
	flagged := map[cell]bool{}
	var year, month int64
	var entity string
	var value, expected, lo, hi, score float64
	_, err = pgx.ForEachRow(rows, []any{&year, &month, &entity, &value, &expected, &lo, &hi, &score}, func() error {
		var e int
		fmt.Sscanf(entity, "e%d", &e)
		flagged[cell{e, int(year-2000)*12 + int(month) - 1}] = true
		if !(value < lo || value > hi) || score <= 1 {
			return fmt.Errorf("%s %d-%d: value %v flagged inside [%v, %v] with score %v", entity, year, month, value, lo, hi, score)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	events := map[cell][]cell{}
	for _, s := range spikes {
		c := cell{s[0], s[1]}
		events[c] = []cell{c}
	}
	for _, s := range []cell{{2, 120}, {5, 150}} {
		events[s] = []cell{s, {s.e, s.t + 1}}
	}
	found, explained := 0, map[cell]bool{}
	for _, cells := range events {
		hit := false
		for _, c := range cells {
			explained[c] = true
			hit = hit || flagged[c]
		}
		if hit {
			found++
		}
	}
	right := 0
	for c := range flagged {
		if explained[c] {
			right++
		}
	}
	recall, precision := float64(found)/float64(len(events)), float64(right)/float64(max(len(flagged), 1))
	t.Logf("%d events, %d found; %d flagged, %d of them injected: recall %.2f, precision %.2f", len(events), found, len(flagged), right, recall, precision)
	if recall < 0.9 || precision < 0.9 {
		t.Errorf("recall %.2f, precision %.2f; want both at least 0.9 (flagged %v)", recall, precision, flagged)
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM detect_anomalies('anom', level := 0.9) WHERE lo < 0"); n != 0 {
		t.Errorf("%d rows with a negative lower bound for series that never went below zero", n)
	}
	expectErrors(t, conn, []failing{
		{"SELECT * FROM detect_anomalies('anom', level := 1.5)", "22023", "level := 1.5"},
		{"SELECT * FROM detect_anomalies('anom', method := 'nope')", "22023", "method := 'nope' is not a method"},
		{"SELECT * FROM detect_anomalies('missing')", "42704", "missing"},
	})
}
