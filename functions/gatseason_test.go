//go:build duckdb_arrow

package functions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestTrainGATSeason trains on 60 quarters of three entities without a
// seasonal pattern (so that detection alone finds none) and checks the
// season train_gat keeps and the NOTICE that says why: the calendar gives
// 4 to (year, quarter) columns and to a date column stepping by quarters,
// 7 to daily dates, and 24 to hourly timestamps only where the training
// rows hold three days (else detection decides, and says why); season :=
// n wins over the calendar, season := 0 is the default (calendar, then
// detection), and a resumed run keeps its checkpoint's.
func TestTrainGATSeason(t *testing.T) {
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	exec(t, conn, `CREATE TABLE q AS SELECT 2000 + i // 4 AS year, 1 + i % 4 AS quarter,
			((i * 37) % 101) / 50.0 AS a, ((i * 53 + 7) % 97) / 50.0 AS b, ((i * 29 + 3) % 89) / 40.0 AS c
		FROM range(60) r(i)`,
		`CREATE TABLE qd AS SELECT make_date(year, 3 * quarter - 2, 1) AS d, a, b, c FROM q`,
		`CREATE TABLE qn AS SELECT row_number() OVER (ORDER BY year, quarter) AS period_no, a, b, c FROM q`,
		`CREATE TABLE qday AS SELECT DATE '2020-01-01' + CAST(period_no AS INTEGER) AS day_of, a, b, c FROM qn`,
		`CREATE TABLE qhour AS SELECT TIMESTAMP '2020-01-01 00:00:00' + to_hours(period_no) AS h, a, b, c FROM qn`)
	tests := []struct {
		name, args string
		season     string
		notice     string
	}{
		{"year and quarter", "'q'", "4", "train_gat: season 4 from the calendar (the time columns are (year, quarter)); season := n overrides it"},
		{"date column", "'qd'", "4", "train_gat: season 4 from the calendar (the time column d steps by a quarter); season := n overrides it"},
		{"given wins", "'q', season := 2", "2", "train_gat: season 2 given (season := 2)"},
		{"zero is the default", "'qd', season := 0", "4", "train_gat: season 4 from the calendar (the time column d steps by a quarter)"},
		{"no calendar, nothing detected", "'qn', time := ['period_no']", "1", "train_gat: no season detected among [4 7 12 24 52]: season 1"},
		{"daily dates", "'qday'", "7", "train_gat: season 7 from the calendar (the time column day_of steps by a day)"},
		{"hourly, too few rows for 24", "'qhour'", "1",
			"train_gat: no season detected among [4 7 12 24 52]: season 1; the calendar's season 24 (the time column h steps by an hour) needs 72 training rows, there are "},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notices = notices[:0]
			name := "s" + string(rune('a'+i))
			exec(t, conn, "SELECT count(*) FROM train_gat("+tt.args+", model := '"+name+"', epochs := 1)")
			var season string
			if err := conn.QueryRow(ctx, "SELECT hyperparameters->>'season' FROM mlops.models WHERE name = $1", name).Scan(&season); err != nil || season != tt.season {
				t.Errorf("season %s (%v), want %s", season, err, tt.season)
			}
			if len(notices) == 0 || !strings.HasPrefix(notices[0], tt.notice) {
				t.Errorf("first notice %q, want %q", notices, tt.notice)
			}
		})
	}
	notices = notices[:0]
	exec(t, conn, "SELECT count(*) FROM train_gat('q', resume := 'sc', epochs := 2)")
	if len(notices) == 0 || notices[0] != "train_gat: season 2, that of sc@1, which resume continues" {
		t.Errorf("resumed: notices %q, want the checkpoint's season 2 first", notices)
	}
	for _, bad := range []string{"-1", "-12"} {
		e := errorCode(t, conn, "SELECT * FROM train_gat('q', model := 'bad', season := "+bad+")")
		if e.Code != "22023" || !strings.Contains(e.Message, "season := "+bad+" is out of range") {
			t.Errorf("season := %s: %s %q, want 22023 naming the value", bad, e.Code, e.Message)
		}
	}
}
